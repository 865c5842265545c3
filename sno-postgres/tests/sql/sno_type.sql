-- The sno type through pg_regress: text in and out, strict decoding, the binary form, the
-- accessors, the operators and casts, the generators' argument errors. Every output is fixed
-- (no generated ID is printed), so expected/sno_type.out is the whole answer.
SET TimeZone = 'UTC';
SELECT 'brpk4q72xwf2m63l'::sno AS readme_example;
SELECT 'brpk4q72xwf2m63l'::sno::bytea AS binary_form;
SELECT '\x4e6f2160a0ff9a0a1033'::bytea::sno AS from_bytea;
SELECT sno_time(v), sno_partition(v), sno_sequence(v), sno_meta(v)
  FROM (SELECT 'brpk4q72xwf2m63l'::sno AS v) s;
SELECT sno_time('2222222222222222'), sno_time('xxxxxxxxxxxxxxxx');
-- Strict decoding: upper case, a short text, a byte outside the alphabet, a wrong binary length.
SELECT 'BRPK4Q72XWF2M63L'::sno;
SELECT 'brpk4q72xwf2m63'::sno;
SELECT 'brpk4q72xwf2m63z'::sno;
SELECT '\x00'::bytea::sno;
-- Order is the bytes' order, which is time order.
SELECT v FROM (VALUES ('xxxxxxxxxxxxxxxx'::sno), ('2222222222222222'), ('brpk4q72xwf2m63l'), ('brpk4q72xwf2m63l')) t(v)
  ORDER BY v;
SELECT a < b AS lt, a <= b AS le, a = b AS eq, a <> b AS ne, a >= b AS ge, a > b AS gt
  FROM (SELECT '2222222222222222'::sno AS a, 'brpk4q72xwf2m63l'::sno AS b) s;
SELECT count(DISTINCT v) FROM (VALUES ('brpk4q72xwf2m63l'::sno), ('brpk4q72xwf2m63l'), ('2222222222222222')) t(v);
SELECT NULL::sno < 'brpk4q72xwf2m63l'::sno AS null_compares_null;
-- Arguments out of range.
SELECT sno_new(256);
SELECT sno_new(-1);
SELECT typeid_new('Bad');
SELECT length(typeid_new('user')) AS typeid_length, length(typeid_new('')) AS bare_length;
