"""IDs of every format in real databases: a throwaway PostgreSQL (scripts/store-server; it
must start, nothing is skipped) through psycopg 3 (``sno.psycopg.register``) and SQLAlchemy 2
(``sno.sqlalchemy``), and SQLite through the standard library's sqlite3 and SQLAlchemy. For
each format and each way: the column type the core recommends with an index, 10 000 IDs
generated in order inserted shuffled, ``ORDER BY id`` gives the generation order, every value
reads back equal (and of its class), the query plan uses the index, and wrong lengths and
wrong types are clear errors."""

import random
import sqlite3

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import StatementError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.schema import CreateTable

import sno
import sno.psycopg
from sno._formats import _PARAMS
import sno.sqlalchemy as snosa
from _ids import PREFIX, generator, in_order

N = 10_000
CLASSES = list(sno.ID_CLASSES)
# register()'s argument for the loader of each PostgreSQL column type.
LOADER_ARG = {"uuid": "uuid", "bytea": "bytea", "bigint": "int8"}
SA_TYPES = {
    sno.ID: snosa.SnoIDType,
    sno.ULID: snosa.ULIDType,
    sno.UUID7: snosa.UUID7Type,
    sno.SCRU128: snosa.SCRU128Type,
    sno.SCRU160: snosa.SCRU160Type,
    sno.Nanoflake: snosa.NanoflakeType,
    sno.UlidFlake: snosa.UlidFlakeType,
    sno.TypeID: snosa.TypeIDType,
    sno.KSUID: snosa.KSUIDType,
}
by_name = pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)


def sa_type(cls):
    return SA_TYPES[cls](PREFIX) if cls is sno.TypeID else SA_TYPES[cls]()


def shuffled(ids, seed):
    out = list(ids)
    random.Random(seed).shuffle(out)
    assert out != ids
    return out


def register_kwargs(cls):
    # A class with a param (a prefix the column does not store) goes as a pair with the column's.
    return {LOADER_ARG[cls.POSTGRES_TYPE]: (cls, PREFIX) if cls in _PARAMS else cls}


@pytest.fixture(scope="module")
def pg_engine(pg):
    engine = sa.create_engine(pg.url.replace("postgres://", "postgresql+psycopg://", 1))
    yield engine
    engine.dispose()


def test_the_sqlalchemy_types_cover_every_class():
    assert set(SA_TYPES) == set(CLASSES)
    for cls, t in SA_TYPES.items():
        assert t.id_class is cls and sa_type(cls).python_type is cls


# --- PostgreSQL through psycopg -------------------------------------------------------------


@by_name
def test_postgres_psycopg(pg, cls):
    ids = in_order(cls, N)
    table = f"psycopg_{cls.FORMAT}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        sno.psycopg.register(conn, **register_kwargs(cls))
        conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute(f"CREATE TABLE {table} (id {cls.POSTGRES_TYPE} NOT NULL)")
        conn.execute(f"CREATE INDEX {table}_id ON {table} (id)")
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {table} (id) VALUES (%s)", [(x,) for x in shuffled(ids, 1)])
        for binary in (False, True):
            with conn.cursor(binary=binary) as cur:
                got = [row[0] for row in cur.execute(f"SELECT id FROM {table} ORDER BY id")]
            assert got == ids
            assert {type(x) for x in got} == {cls}
        # Parameters in text and binary both; the database type is the recommended one.
        probe = ids[N // 3]
        for placeholder in ("%s", "%t", "%b"):
            row = conn.execute(
                f"SELECT id, pg_typeof({placeholder})::text FROM {table} WHERE id = {placeholder}",
                [probe, probe],
            ).fetchone()
            assert row == (probe, cls.POSTGRES_TYPE), placeholder
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN SELECT id FROM {table} WHERE id = %s", [probe]))
        assert f"{table}_id" in plan, plan
        plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN SELECT id FROM {table} ORDER BY id"))
        assert f"{table}_id" in plan and "Sort" not in plan, plan


def test_psycopg_without_loaders_returns_the_driver_types_and_dumps_ids(pg):
    """register() with no loader asked: IDs still go in as parameters; columns come back as
    psycopg's own uuid.UUID / bytes / int, equal to to_uuid() / bytes / int of the value."""
    with psycopg.connect(pg.url, autocommit=True) as conn:
        sno.psycopg.register(conn)
        for cls in CLASSES:
            x = generator(cls)()
            got = conn.execute("SELECT %s", [x]).fetchone()[0]
            want = {"uuid": x.to_uuid() if cls.BINARY_LEN == 16 else None, "bytea": bytes(x), "bigint": int(x)}
            assert got == want[cls.POSTGRES_TYPE], cls


def test_psycopg_register_on_a_cursor_stays_in_the_cursor(pg):
    with psycopg.connect(pg.url, autocommit=True) as conn:
        x = sno.ulid.new()
        with conn.cursor() as cur:
            sno.psycopg.register(cur, uuid=sno.ULID)
            assert cur.execute("SELECT %s", [x]).fetchone()[0] == x
        with pytest.raises(psycopg.ProgrammingError, match="cannot adapt type 'ULID'"):
            conn.execute("SELECT %s", [x])
        assert conn.execute("SELECT %s::uuid", [str(x.to_uuid())]).fetchone()[0] == x.to_uuid()


def test_psycopg_read_errors(pg):
    with psycopg.connect(pg.url, autocommit=True) as conn:
        sno.psycopg.register(conn, uuid=sno.UUID7, bytea=sno.ID, int8=sno.Nanoflake)
        for binary in (False, True):
            cur = conn.cursor(binary=binary)
            # A bytea of the wrong length: the core's length error.
            with pytest.raises(sno.DecodeError, match="length 9, expected 10"):
                cur.execute("SELECT '\\x000102030405060708'::bytea").fetchone()
            # A uuid that is not version 7.
            with pytest.raises(sno.DecodeError) as e:
                cur.execute("SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid").fetchone()
            assert e.value.code == "not_version_7"
            # A negative bigint: no Nanoflake has the sign bit.
            with pytest.raises(sno.DecodeError):
                cur.execute("SELECT (-5)::bigint").fetchone()
            # Other columns keep psycopg's loaders.
            assert cur.execute("SELECT 5::int4, 'x'::text").fetchone() == (5, "x")


def test_psycopg_write_errors(pg):
    with psycopg.connect(pg.url, autocommit=True) as conn:
        sno.psycopg.register(conn)
        conn.execute("CREATE TEMP TABLE flakes (id bigint)")
        # A ULID (uuid) into a bigint column: PostgreSQL refuses the type.
        with pytest.raises(psycopg.errors.DatatypeMismatch, match="bigint.*uuid"):
            conn.execute("INSERT INTO flakes VALUES (%s)", [sno.ulid.new()])
    # Loaders that do not fit the column type, or are not ID classes, are refused at once.
    with psycopg.connect(pg.url) as conn:
        with pytest.raises(ValueError, match="stored as bytea, not uuid"):
            sno.psycopg.register(conn, uuid=sno.ID)
        with pytest.raises(ValueError, match="stored as uuid, not bigint"):
            sno.psycopg.register(conn, int8=sno.ULID)
        with pytest.raises(TypeError, match="libsno ID class"):
            sno.psycopg.register(conn, uuid=str)
        with pytest.raises(ValueError, match="typeid_prefix"):
            sno.psycopg.register(conn, uuid=sno.TypeID)
        with pytest.raises(ValueError, match="needs the column's prefix"):
            sno.psycopg.register(conn, uuid=(sno.TypeID, None))
        with pytest.raises(sno.DecodeError) as e:
            sno.psycopg.register(conn, uuid=sno.TypeID, typeid_prefix="Bad")
        assert e.value.code == "invalid_prefix"
        with pytest.raises(sno.DecodeError, match="prefix"):
            sno.psycopg.register(conn, uuid=(sno.TypeID, "Bad"))
        with pytest.raises(TypeError, match="takes no param"):
            sno.psycopg.register(conn, uuid=(sno.ULID, "x"))
        with pytest.raises(ValueError, match="stored as uuid, not bytea"):
            sno.psycopg.register(conn, bytea=(sno.TypeID, "x"))


def test_psycopg_a_param_as_a_pair_or_typeid_prefix(pg):
    t = sno.typeid.new(PREFIX)
    for kwargs in ({"uuid": (sno.TypeID, PREFIX)}, {"uuid": sno.TypeID, "typeid_prefix": PREFIX}):
        with psycopg.connect(pg.url) as conn:
            sno.psycopg.register(conn, **kwargs)
            for binary in (False, True):
                got = conn.cursor(binary=binary).execute("SELECT %s::uuid", [t]).fetchone()[0]
                assert (got, got.prefix) == (t, PREFIX), kwargs


# --- SQLAlchemy: PostgreSQL and SQLite ------------------------------------------------------


def sqlalchemy_round_trip(engine, cls, explain, prepare=None):
    ids = in_order(cls, N)
    md = sa.MetaData()
    name = f"sa_{cls.FORMAT}"
    t = sa.Table(name, md, sa.Column("id", sa_type(cls), nullable=False, index=True))
    md.drop_all(engine)
    md.create_all(engine)
    with engine.begin() as c:
        c.execute(t.insert(), [{"id": x} for x in shuffled(ids, 2)])
    with engine.connect() as c:
        got = c.execute(sa.select(t.c.id).order_by(t.c.id)).scalars().all()
        assert got == ids and {type(x) for x in got} == {cls}
        probe = ids[N // 2]
        assert c.execute(sa.select(t.c.id).where(t.c.id == probe)).scalar_one() == probe
        # The canonical text binds too (decoded strictly).
        assert c.execute(sa.select(t.c.id).where(t.c.id == str(probe))).scalar_one() == probe
        # The plan of the same query, its parameter bound through the column type.
        if prepare:
            c.exec_driver_sql(prepare)
        query = sa.text(f"{explain} SELECT id FROM {name} WHERE id = :v").bindparams(
            sa.bindparam("v", type_=sa_type(cls))
        )
        plan = "\n".join(str(row[-1]) for row in c.execute(query, {"v": probe}))
        assert f"ix_{name}_id" in plan, plan
    md.drop_all(engine)


@by_name
def test_postgres_sqlalchemy(pg_engine, cls):
    sqlalchemy_round_trip(pg_engine, cls, "EXPLAIN", prepare="SET enable_seqscan = off")


@by_name
def test_sqlite_sqlalchemy(cls):
    sqlalchemy_round_trip(sa.create_engine("sqlite://"), cls, "EXPLAIN QUERY PLAN")


def test_sqlalchemy_ddl_follows_the_core_table():
    from sqlalchemy.dialects import postgresql, sqlite

    for cls in CLASSES:
        t = sa.Table("t", sa.MetaData(), sa.Column("id", sa_type(cls)))
        pg_ddl = str(CreateTable(t).compile(dialect=postgresql.dialect())).lower()
        lite_ddl = str(CreateTable(t).compile(dialect=sqlite.dialect()))
        assert f"id {cls.POSTGRES_TYPE}" in pg_ddl, pg_ddl
        assert f"id {cls.SQLITE_TYPE}" in lite_ddl, lite_ddl


def test_sqlalchemy_literals_only_where_the_dialect_has_one():
    """literal_binds: a UUID or an integer renders as the column type does; a binary form is
    never rendered (escaping differs per dialect): a clear compile error."""
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.exc import CompileError

    def where(cls, value, dialect):
        t = sa.Table("t", sa.MetaData(), sa.Column("id", sa_type(cls)))
        query = sa.select(t.c.id).where(t.c.id == value)
        return str(query.compile(dialect=dialect, compile_kwargs={"literal_binds": True})).split("WHERE ")[1]

    u, n = sno.ulid.new(), generator(sno.Nanoflake)()
    assert where(sno.ULID, u, postgresql.dialect()) == f"t.id = '{u.to_uuid()}'"
    assert where(sno.Nanoflake, n, sqlite.dialect()) == f"t.id = {int(n)}"
    for cls, dialect in ((sno.ULID, sqlite.dialect()), (sno.ID, postgresql.dialect())):
        with pytest.raises(CompileError) as e:
            where(cls, generator(cls)(), dialect)
        assert "bound as parameters" in str(e.value.__cause__)


def test_sqlalchemy_over_sno_psycopg_loaders(pg):
    """An engine whose connections also have sno.psycopg's loaders: the types take the objects
    the driver already made."""
    engine = sa.create_engine(pg.url.replace("postgres://", "postgresql+psycopg://", 1))

    @sa.event.listens_for(engine, "connect")
    def register(dbapi_connection, _record):
        sno.psycopg.register(dbapi_connection, uuid=sno.ULID, bytea=sno.ID)

    md = sa.MetaData()
    t = sa.Table("over_loaders", md, sa.Column("u", snosa.ULIDType()), sa.Column("s", snosa.SnoIDType()))
    try:
        md.create_all(engine)
        row = {"u": sno.ulid.new(), "s": sno.new()}
        with engine.begin() as c:
            c.execute(t.insert(), [row])
            assert c.execute(sa.select(t.c.u, t.c.s)).one()._asdict() == row
            assert tuple(c.exec_driver_sql("SELECT u, s FROM over_loaders").one()) == (row["u"], row["s"])
        # Columns of other formats in uuid columns: the loader makes ULIDs, the types read the
        # same bits as their own class (and check them: a UUIDv7 column).
        other = sa.Table(
            "over_loaders_other",
            md,
            sa.Column("u7", snosa.UUID7Type()),
            sa.Column("t", snosa.TypeIDType("user")),
        )
        md.create_all(engine)
        row = {"u7": sno.uuid7.new(), "t": sno.typeid.new("user")}
        with engine.begin() as c:
            c.execute(other.insert(), [row])
            assert c.execute(sa.select(other.c.u7, other.c.t)).one()._asdict() == row
            c.execute(other.insert(), [{"u7": row["u7"].to_uuid(), "t": None}])  # a uuid.UUID
            c.exec_driver_sql("INSERT INTO over_loaders_other (u7) VALUES (gen_random_uuid())")
            with pytest.raises(sno.DecodeError) as e:
                c.execute(sa.select(other.c.u7)).all()
            assert e.value.code == "not_version_7"
        md.drop_all(engine)
    finally:
        engine.dispose()


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"
    id: Mapped[sno.TypeID] = mapped_column(snosa.TypeIDType("acct"), primary_key=True)
    sno_id: Mapped[sno.ID] = mapped_column(snosa.SnoIDType())
    ulid: Mapped[sno.ULID | None] = mapped_column(snosa.ULIDType(), nullable=True)
    uuid7: Mapped[sno.UUID7] = mapped_column(snosa.UUID7Type())
    scru128: Mapped[sno.SCRU128] = mapped_column(snosa.SCRU128Type())
    scru160: Mapped[sno.SCRU160] = mapped_column(snosa.SCRU160Type())
    ksuid: Mapped[sno.KSUID] = mapped_column(snosa.KSUIDType())
    nanoflake: Mapped[sno.Nanoflake] = mapped_column(snosa.NanoflakeType())
    ulidflake: Mapped[sno.UlidFlake | None] = mapped_column(snosa.UlidFlakeType(), nullable=True)


COLUMNS = ("id", "sno_id", "ulid", "uuid7", "scru128", "scru160", "ksuid", "nanoflake", "ulidflake")


def account(ulid=True):
    return Account(
        id=sno.TypeID.new("acct"),
        sno_id=sno.new(),
        ulid=sno.ulid.new() if ulid else None,
        uuid7=sno.uuid7.new(),
        scru128=sno.scru128.new(),
        scru160=sno.scru160.new(),
        ksuid=sno.ksuid.new(),
        nanoflake=generator(sno.Nanoflake)(),
        ulidflake=sno.ulidflake.new() if ulid else None,
    )


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_orm_table_round_trip_with_nulls(backend, request):
    engine = request.getfixturevalue("pg_engine") if backend == "postgres" else sa.create_engine("sqlite://")
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    made = [account(), account(ulid=False), account()]
    want = [{k: getattr(a, k) for k in COLUMNS} for a in made]
    with Session(engine) as s:
        s.add_all(made)
        s.commit()
    with Session(engine) as s:
        got = s.scalars(sa.select(Account).order_by(Account.id)).all()
        assert [{k: getattr(a, k) for k in COLUMNS} for a in got] == want
        assert got[1].ulid is None and got[1].ulidflake is None
        assert s.get(Account, want[2]["id"]).scru160 == want[2]["scru160"]
        assert s.get(Account, want[0]["id"]).ksuid == want[0]["ksuid"]
        # A TypeID of another prefix is refused before it reaches the database.
        with pytest.raises(StatementError, match="prefix 'acct', not 'user'"):
            s.get(Account, sno.TypeID.new("user"))
    Base.metadata.drop_all(engine)


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_sqlalchemy_errors(backend, request):
    engine = request.getfixturevalue("pg_engine") if backend == "postgres" else sa.create_engine("sqlite://")
    md = sa.MetaData()
    ids = sa.Table("err_ids", md, sa.Column("id", snosa.SnoIDType()))
    flakes = sa.Table("err_flakes", md, sa.Column("id", snosa.NanoflakeType()))
    md.drop_all(engine)
    md.create_all(engine)
    with engine.begin() as c:
        # Wrong Python types and bad text: clear errors, nothing written.
        with pytest.raises(StatementError, match="SnoIDType takes sno.ID or its text, not sno.ULID"):
            c.execute(ids.insert(), [{"id": sno.ulid.new()}])
        with pytest.raises(StatementError, match="not builtins.bytes"):
            c.execute(ids.insert(), [{"id": bytes(10)}])
        with pytest.raises(StatementError, match="invalid length 15"):
            c.execute(ids.insert(), [{"id": "brpk4q72xwf2m63"}])
        # A stored value of the wrong length, or sign, read through the type.
        c.execute(sa.text("INSERT INTO err_ids (id) VALUES (:v)"), {"v": bytes(9)})
        c.execute(sa.text("INSERT INTO err_flakes (id) VALUES (:v)"), {"v": -1})
    with engine.connect() as c:
        with pytest.raises(sno.DecodeError, match="length 9, expected 10"):
            c.execute(sa.select(ids.c.id)).all()
        with pytest.raises(sno.DecodeError) as e:
            c.execute(sa.select(flakes.c.id)).all()
        assert e.value.code == "value_overflow"
    md.drop_all(engine)
    with pytest.raises(sno.DecodeError):
        snosa.TypeIDType("Not A Prefix")
    with pytest.raises(TypeError):
        snosa.TypeIDType(None)


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_sno_null_as_zero_where_asked(backend, request):
    """SnoIDType(null_as_zero=True) reads NULL and an empty value as the zero ID (the Go
    Scanner's rule); by default NULL is None and an empty value the core's length error."""
    engine = request.getfixturevalue("pg_engine") if backend == "postgres" else sa.create_engine("sqlite://")
    md = sa.MetaData()
    t = sa.Table("nulls", md, sa.Column("n", sa.Integer), sa.Column("id", snosa.SnoIDType()))
    md.drop_all(engine)
    md.create_all(engine)
    x = sno.new()
    with engine.begin() as c:
        c.execute(t.insert(), [{"n": 0, "id": None}, {"n": 1, "id": x}])
        c.execute(sa.text("INSERT INTO nulls (n, id) VALUES (2, :v)"), {"v": b""})
    zero_aware = sa.Column("id", snosa.SnoIDType(null_as_zero=True))
    with engine.connect() as c:
        query = sa.select(t.c.id).where(t.c.n < 2).order_by(t.c.n)
        assert c.execute(query).scalars().all() == [None, x]
        with pytest.raises(sno.DecodeError, match="length 0, expected 10"):
            c.execute(sa.select(t.c.id).where(t.c.n == 2)).all()
        as_zero = sa.select(sa.type_coerce(t.c.id, zero_aware.type)).order_by(t.c.n)
        zero = sno.ID.from_bytes(bytes(10))
        assert c.execute(as_zero).scalars().all() == [zero, x, zero]
    md.drop_all(engine)


# --- SQLite through the standard library ----------------------------------------------------


@by_name
def test_sqlite3(cls):
    ids = in_order(cls, N)
    # The column's SQL type and its Python value come from the class (the core's table).
    to_db = bytes if cls.SQLITE_TYPE == "BLOB" else int
    if cls is sno.TypeID:
        from_db = lambda v: sno.TypeID.from_uuid(PREFIX, v)  # noqa: E731
    else:
        from_db = cls.from_bytes if cls.SQLITE_TYPE == "BLOB" else cls.from_int
    con = sqlite3.connect(":memory:")
    try:
        con.execute(f"CREATE TABLE t (id {cls.SQLITE_TYPE} NOT NULL)")
        con.execute("CREATE INDEX t_id ON t (id)")
        con.executemany("INSERT INTO t (id) VALUES (?)", [(to_db(x),) for x in shuffled(ids, 3)])
        got = [from_db(v) for (v,) in con.execute("SELECT id FROM t ORDER BY id")]
        assert got == ids
        probe = ids[N // 4]
        assert from_db(con.execute("SELECT id FROM t WHERE id = ?", (to_db(probe),)).fetchone()[0]) == probe
        plan = " ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN SELECT id FROM t WHERE id = ?", (to_db(probe),)))
        assert "USING COVERING INDEX t_id" in plan, plan
        plan = " ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN SELECT id FROM t ORDER BY id"))
        assert "t_id" in plan and "TEMP B-TREE" not in plan, plan
        # A wrong length (or a negative integer) and a wrong type read back: the core's errors.
        with pytest.raises(sno.DecodeError) as e:
            from_db(to_db(probe)[:-1] if to_db is bytes else -1)
        assert e.value.code == ("invalid_length" if to_db is bytes else "value_overflow")
        with pytest.raises(TypeError):
            from_db(3.5)
    finally:
        con.close()


def test_sqlite3_adapters_from_the_column_type():
    """sqlite3.register_adapter with the class's SQLite type: the IDs are parameters as such."""
    con = sqlite3.connect(":memory:")
    try:
        for cls in CLASSES:
            sqlite3.register_adapter(cls, bytes if cls.SQLITE_TYPE == "BLOB" else int)
        xs = [generator(cls)() for cls in CLASSES]
        got = con.execute("SELECT " + ", ".join("?" * len(xs)), xs).fetchone()
        assert got == tuple(bytes(x) if x.SQLITE_TYPE == "BLOB" else int(x) for x in xs)
    finally:
        con.close()
