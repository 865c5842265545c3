//! The PostgreSQL store.
//!
//! Two tables and one sequence, created on first use if missing (`CREATE … IF NOT EXISTS`
//! under an advisory lock, so that a fleet starting at once does not race on the catalog):
//!
//! ```sql
//! CREATE TABLE IF NOT EXISTS sno_partition_leases (
//!     namespace   text        NOT NULL,
//!     partition   integer     NOT NULL CHECK (partition BETWEEN 0 AND 65535),
//!     holder      text        NOT NULL,   -- host/pid/random of the holder, for operators
//!     token       bigint      NOT NULL,   -- fencing token, from the sequence below
//!     acquired_at timestamptz NOT NULL,   -- when the grant was made
//!     expires_at  timestamptz NOT NULL,   -- free again from this moment (server clock)
//!     ids_from    timestamptz NOT NULL,   -- this grant stamps IDs at or after this time
//!     ids_before  timestamptz NOT NULL,   -- every holder so far stamped IDs before this time
//!     renewed_at  timestamptz,            -- when the grant was last renewed (or made)
//!     PRIMARY KEY (namespace, partition)
//! );
//! CREATE SEQUENCE IF NOT EXISTS sno_partition_lease_tokens;
//! CREATE TABLE IF NOT EXISTS sno_lease_history (
//!     namespace text        PRIMARY KEY,
//!     history   text        NOT NULL,     -- system identifier:timeline of the granting server
//!     born      timestamptz NOT NULL      -- start of the namespace's epoch on that history
//! );
//! ```
//!
//! Acquire, renew and release are one statement each (acquire after a look at the history),
//! and every time in them is the server's `now()` (truncated to the millisecond), never the
//! client's clock. A role that may not create tables needs the objects created beforehand (run
//! the statements above) and `SELECT, INSERT, UPDATE` on both tables and `USAGE, SELECT,
//! UPDATE` on the sequence. Rows are never deleted: `ids_before` of a free partition is what
//! keeps its next holder's IDs apart from the last one's. Do not truncate the tables while
//! holders run (see `docs/fleet.md`).
//!
//! **Failover.** Streaming replication is asynchronous by default: a promoted standby may lack
//! the last grants and renewals of its old primary, and grant a partition whose holder still
//! mints. The server cannot say what it lost, but it can say that its history changed: a
//! promotion starts a new timeline (and another cluster has another system identifier). Each
//! acquisition compares the history of the server answering with the one the namespace's last
//! grant was made under; on a change it starts a new epoch (`born` = now, the fencing tokens
//! restart above the server's clock in microseconds), and every grant's IDs start at
//! `born + TTL` at the earliest. By then every grant of the old primary has expired: its last
//! renewal came before the promotion, so its window ends before `promotion + TTL ≤ born + TTL`
//! (with the two servers' clocks within the margin of each other). Renewals go on across a
//! failover: a grant the standby knows is still that holder's (token and holder match), and
//! one it lost cannot be renewed (lost), while its holder's window stays below `born + TTL`.
//! The old primary must be stopped or fenced off when the standby is promoted (as any failover
//! requires): holders still writing to it would be a second history.

use core::time::Duration;

use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config, NoTls};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::address::{Secrets, plain_name};
use crate::error::Error;
use crate::pg_tls;
use crate::pg_url::{self, PgTls};
use crate::store::{Grant, Holding, Request, Store};

const CREATE: &str = "
SELECT pg_advisory_xact_lock(7236278340211286898);
CREATE TABLE IF NOT EXISTS sno_partition_leases (
    namespace   text        NOT NULL,
    partition   integer     NOT NULL CHECK (partition BETWEEN 0 AND 65535),
    holder      text        NOT NULL,
    token       bigint      NOT NULL,
    acquired_at timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    ids_from    timestamptz NOT NULL,
    ids_before  timestamptz NOT NULL,
    renewed_at  timestamptz,
    PRIMARY KEY (namespace, partition)
);
CREATE SEQUENCE IF NOT EXISTS sno_partition_lease_tokens;
CREATE TABLE IF NOT EXISTS sno_lease_history (
    namespace text        PRIMARY KEY,
    history   text        NOT NULL,
    born      timestamptz NOT NULL
);";

/// $1 namespace. The history of the server answering (its system identifier and the timeline of
/// its WAL) against the one the namespace's last grant was made under: a different one (a
/// promoted standby, a restored backup, another cluster) may lack the newest grants, so a new
/// epoch starts, `born` = now, and no grant of the epoch starts its IDs before `born + TTL` (see
/// the module documentation). A namespace first seen on a server that was ever promoted
/// (timeline above 1) starts an epoch too: its row may be what the promotion lost. A new epoch
/// also restarts the fencing tokens above the server's clock in microseconds (a promoted
/// standby's sequence may lag the tokens its old primary handed out, and tokens only grow), in
/// the same statement: the history row stays locked until it commits, so a concurrent
/// acquisition takes its token only after the restart. Returns `born` (Unix ms).
const HISTORY: &str = "WITH cur AS (
    SELECT (SELECT system_identifier FROM pg_control_system())::text || ':' || w.timeline AS h,
           w.timeline <> '00000001' AS promoted,
           date_trunc('milliseconds', now()) AS t
    FROM (SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) AS timeline) AS w
),
epoch AS (
    INSERT INTO sno_lease_history AS x (namespace, history, born)
    SELECT $1, c.h, CASE WHEN c.promoted THEN c.t ELSE to_timestamp(0) END FROM cur AS c
    ON CONFLICT (namespace) DO UPDATE
        SET history = EXCLUDED.history,
            born = CASE WHEN x.history = EXCLUDED.history THEN x.born
                        ELSE date_trunc('milliseconds', now()) END
    RETURNING born, born = date_trunc('milliseconds', now()) AS started
),
tokens AS (
    SELECT setval('sno_partition_lease_tokens',
        GREATEST((SELECT last_value FROM sno_partition_lease_tokens),
                 (extract(epoch FROM now()) * 1000000)::bigint))
    FROM epoch WHERE epoch.started
)
SELECT (extract(epoch FROM born) * 1000)::bigint, (SELECT count(*) FROM tokens)
FROM epoch";

/// The columns every statement returns: partition, token, ids_from, ids_before, expires_at
/// (the times in Unix milliseconds).
const RETURNING: &str = "RETURNING partition, token,
    (extract(epoch FROM ids_from) * 1000)::bigint,
    (extract(epoch FROM ids_before) * 1000)::bigint,
    (extract(epoch FROM expires_at) * 1000)::bigint";

/// $1 namespace, $2 first, $3 last, $4 start, $5 holder, $6 ttl ms, $7 margin ms,
/// $8 whether a partition whose earlier holders' IDs reach into the future will do, $9 the
/// epoch's floor (Unix ms, `born + TTL`): no grant's IDs start before it.
/// The candidate search walks the range from `start` (wrapping) and stops at the first free
/// partition; `ON CONFLICT … WHERE` re-checks expiry on the latest row version, so two
/// acquirers racing for one partition cannot both get it. Always one row: the grant's columns
/// (all NULL when the race for the candidate was lost: another acquirer committed it first),
/// then the number of candidates found (0: the statement's snapshot saw every partition of the
/// range held by a live lease).
fn acquire_sql(renewed_at: bool) -> String {
    let (column, value, set) = if renewed_at {
        (
            ", renewed_at",
            ", n.t",
            ", renewed_at = EXCLUDED.renewed_at",
        )
    } else {
        ("", "", "")
    };
    format!(
        "WITH now_ms AS (SELECT date_trunc('milliseconds', now()) AS t),
candidate AS (
    SELECT c.partition
    FROM (SELECT $2::int + (($4::int - $2::int + k) % ($3::int - $2::int + 1)) AS partition
          FROM generate_series(0, $3::int - $2::int) AS k) AS c
    LEFT JOIN sno_partition_leases AS l ON l.namespace = $1 AND l.partition = c.partition,
    now_ms
    WHERE l.partition IS NULL OR (l.expires_at <= now_ms.t AND ($8::bool OR l.ids_before <= now_ms.t))
    LIMIT 1
),
granted AS (
INSERT INTO sno_partition_leases AS l
    (namespace, partition, holder, token, acquired_at, expires_at, ids_from, ids_before{column})
SELECT $1, c.partition, $5, nextval('sno_partition_lease_tokens'), n.t,
       n.t + $6::bigint * interval '1 millisecond',
       to_timestamp(0) + $9::bigint * interval '1 millisecond',
       GREATEST(n.t + ($6::bigint - $7::bigint) * interval '1 millisecond',
                to_timestamp(0) + $9::bigint * interval '1 millisecond'){value}
FROM candidate AS c, now_ms AS n
ON CONFLICT (namespace, partition) DO UPDATE
    SET holder = EXCLUDED.holder, token = EXCLUDED.token, acquired_at = EXCLUDED.acquired_at,
        expires_at = EXCLUDED.expires_at, ids_from = GREATEST(l.ids_before, EXCLUDED.ids_from),
        ids_before = GREATEST(l.ids_before, EXCLUDED.ids_before){set}
    WHERE l.expires_at <= EXCLUDED.acquired_at
RETURNING partition, token, ids_from, ids_before, expires_at
)
SELECT g.partition, g.token,
    (extract(epoch FROM g.ids_from) * 1000)::bigint,
    (extract(epoch FROM g.ids_before) * 1000)::bigint,
    (extract(epoch FROM g.expires_at) * 1000)::bigint,
    (SELECT count(*) FROM candidate)
FROM (VALUES (1)) AS one (x) LEFT JOIN granted AS g ON true"
    )
}

/// $1 namespace, $2 partition, $3 holder, $4 token, $5 ttl ms, $6 margin ms. Renewing an
/// expired grant is allowed while nobody took it (the token still matches): no other holder
/// has stamped an ID with the partition since.
fn renew_sql(renewed_at: bool) -> String {
    let set = if renewed_at {
        ",\n    renewed_at = date_trunc('milliseconds', now())"
    } else {
        ""
    };
    format!(
        "UPDATE sno_partition_leases AS l
SET expires_at = date_trunc('milliseconds', now()) + $5::bigint * interval '1 millisecond',
    ids_before = GREATEST(l.ids_before,
        date_trunc('milliseconds', now()) + ($5::bigint - $6::bigint) * interval '1 millisecond'){set}
WHERE namespace = $1 AND partition = $2 AND holder = $3 AND token = $4
{RETURNING}"
    )
}

/// $1 namespace, $2 partition, $3 holder, $4 token, $5 the end of the holder's IDs (Unix ms).
/// The bound goes down to just past the holder's IDs, never below its grant's `ids_from`.
const RELEASE: &str = "UPDATE sno_partition_leases
SET expires_at = LEAST(expires_at, date_trunc('milliseconds', now())),
    ids_before = GREATEST(ids_from,
        LEAST(ids_before, to_timestamp(0) + $5::bigint * interval '1 millisecond'))
WHERE namespace = $1 AND partition = $2 AND holder = $3 AND token = $4";

pub(crate) struct PostgresStore {
    config: Config,
    /// `None`: plain connections (`sslmode=disable`).
    tls: Option<MakeRustlsConnect>,
    /// The address without secrets, for messages.
    url: String,
    /// What the server's own words must not show.
    secrets: Secrets,
    /// Whether the server's own words may be shown: only while every name it could quote back
    /// is shown in `url` (see [`ServerWords`]).
    server_words: ServerWords,
    /// Always `Some` until drop, which shuts it down without waiting for a name lookup that
    /// the resolver still runs on a blocking thread.
    runtime: Option<tokio::runtime::Runtime>,
    client: Option<Client>,
    /// Whether the lease table has its `renewed_at` column, once the schema was checked (the
    /// first call that may create it).
    renewed_at: Option<bool>,
}

impl PostgresStore {
    pub(crate) fn open(url: &str) -> Result<Self, Error> {
        let pg_url::PgAddress {
            mut config,
            tls: tls_mode,
            description,
            secrets,
        } = pg_url::parse(url)?;
        let tls = match tls_mode {
            PgTls::Off => None,
            PgTls::On(settings) => Some(MakeRustlsConnect::new(pg_tls::client_config(&settings)?)),
        };
        config.application_name("sno-lease");
        let server_words = ServerWords::for_config(&config);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| Error::Store {
                detail: format!("cannot start the I/O runtime: {e}"),
            })?;
        Ok(PostgresStore {
            config,
            tls,
            url: description,
            secrets,
            server_words,
            runtime: Some(runtime),
            client: None,
            renewed_at: None,
        })
    }

    /// Runs `f` on a connected client within `timeout` (connecting first if needed, and
    /// creating or completing the schema on the first call); any failure drops the connection,
    /// so the next call starts on a fresh one.
    fn call<T>(
        &mut self,
        timeout: Duration,
        f: impl AsyncFnOnce(&Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, Error> {
        self.call_with(timeout, true, f)
    }

    /// [`call`](Self::call), with `setup` false: the schema is left as it is (status reads).
    fn call_with<T>(
        &mut self,
        timeout: Duration,
        setup: bool,
        f: impl AsyncFnOnce(&Client) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, Error> {
        let config = &mut self.config;
        let tls = &self.tls;
        let url = &self.url;
        let words = self.server_words;
        let classified = |e| classify(url, words, e);
        let client_slot = &mut self.client;
        let renewed_at = &mut self.renewed_at;
        let Some(runtime) = self.runtime.as_ref() else {
            return Err(Error::Store {
                detail: "the store is shut down".into(),
            });
        };
        let result = runtime.block_on(async {
            tokio::time::timeout(timeout, async {
                if client_slot.is_none() {
                    config.connect_timeout(timeout);
                    let client = match tls {
                        Some(tls) => {
                            let (client, connection) =
                                config.connect(tls.clone()).await.map_err(classified)?;
                            tokio::spawn(async move {
                                let _ = connection.await;
                            });
                            client
                        }
                        None => {
                            let (client, connection) =
                                config.connect(NoTls).await.map_err(classified)?;
                            tokio::spawn(async move {
                                let _ = connection.await;
                            });
                            client
                        }
                    };
                    *client_slot = Some(client);
                }
                let client = client_slot.as_ref().expect("connected above");
                if setup && renewed_at.is_none() {
                    *renewed_at = Some(prepare_schema(client).await.map_err(classified)?);
                }
                f(client).await.map_err(classified)
            })
            .await
        });
        let result = match result {
            Ok(r) => r,
            Err(_) => Err(Error::Unreachable {
                detail: format!("{url}: no answer within {} ms", timeout.as_millis()),
            }),
        };
        if matches!(result, Err(Error::Unreachable { .. } | Error::Store { .. })) {
            self.client = None;
        }
        result.map_err(|e| self.secrets.scrub_error(e))
    }
}

/// Checks the schema on a first connection: creates the tables if missing, adds the
/// `renewed_at` column to a table made by libsno 0.2. Returns whether the column is there: a
/// role that may not alter a table created by another one leases as before, without it (the
/// status then shows no renewal times).
async fn prepare_schema(client: &Client) -> Result<bool, tokio_postgres::Error> {
    let row = client.query_one(SCHEMA, &[]).await?;
    let (tables, column): (bool, bool) = (row.get(0), row.get(1));
    if !tables {
        client
            .batch_execute(&format!("BEGIN;{CREATE}COMMIT;"))
            .await?;
        return Ok(true);
    }
    if column {
        return Ok(true);
    }
    match client.batch_execute(ADD_RENEWED_AT).await {
        Ok(()) => Ok(true),
        Err(e) if e.code() == Some(&SqlState::INSUFFICIENT_PRIVILEGE) => {
            client.batch_execute("ROLLBACK").await?;
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// Whether both tables exist, and whether the lease table has `renewed_at`.
const SCHEMA: &str = "SELECT to_regclass('sno_partition_leases') IS NOT NULL
        AND to_regclass('sno_lease_history') IS NOT NULL,
    EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('sno_partition_leases')
            AND attname = 'renewed_at' AND NOT attisdropped)";

/// The column libsno 0.3 added, under the schema's advisory lock.
const ADD_RENEWED_AT: &str = "BEGIN;
SELECT pg_advisory_xact_lock(7236278340211286898);
ALTER TABLE sno_partition_leases ADD COLUMN IF NOT EXISTS renewed_at timestamptz;
COMMIT;";

/// $1 namespace: every live grant, and the server's clock (Unix ms) in every row.
fn status_sql(renewed_at: bool) -> String {
    let renewed = if renewed_at {
        "(extract(epoch FROM renewed_at) * 1000)::bigint"
    } else {
        "NULL::bigint"
    };
    format!(
        "SELECT partition, holder, token, (extract(epoch FROM acquired_at) * 1000)::bigint,
    {renewed}, (extract(epoch FROM expires_at) * 1000)::bigint
FROM sno_partition_leases WHERE namespace = $1 AND expires_at > now() ORDER BY partition"
    )
}

/// A status row as a holding.
fn holding_of(row: &tokio_postgres::Row) -> Result<Holding, Error> {
    let read = || -> Result<Holding, tokio_postgres::Error> {
        let partition: i32 = row.try_get(0)?;
        let token: i64 = row.try_get(2)?;
        Ok(Holding {
            partition: partition as u16,
            holder: row.try_get(1)?,
            token: token as u64,
            acquired_unix_ms: Some(row.try_get(3)?),
            renewed_unix_ms: row.try_get(4)?,
            expires_unix_ms: row.try_get(5)?,
        })
    };
    read().map_err(unexpected_shape)
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// What one acquisition statement did.
///
/// Why a concurrent first use is never refused (issue #42, item 3): the range is reported full
/// only after a statement whose own snapshot found no free partition, that is when, at one
/// moment, every partition of the range was held by a committed, unexpired grant. A statement
/// that found a candidate but lost it to another acquirer (whose grant the snapshot could not
/// see yet) proves nothing about the rest of the range, so it is tried again with a fresh
/// snapshot; each such loss is another acquirer's success, so the tries end (bounded by the
/// deadline in any case). Before, a fixed number of tries counted the losses too, and 20
/// acquirers released at once by the advisory lock of the first `CREATE TABLE` on a loaded
/// machine could lose them all.
enum Outcome {
    Granted(Grant),
    Lost,
    NoCandidate,
}

/// An acquisition's row as its outcome; a table whose columns have other types (created by
/// hand, or by another schema version) is a store error, not a panic.
fn outcome(row: &tokio_postgres::Row) -> Result<Outcome, Error> {
    let read = || -> Result<(i64, Option<i32>), tokio_postgres::Error> {
        Ok((row.try_get(5)?, row.try_get(0)?))
    };
    let (candidates, granted) = read().map_err(unexpected_shape)?;
    Ok(match (granted, candidates) {
        (Some(_), _) => Outcome::Granted(grant_of(row)?),
        (None, 0) => Outcome::NoCandidate,
        (None, _) => Outcome::Lost,
    })
}

/// A returned row as a grant; a table whose columns have other types is a store error.
fn grant_of(row: &tokio_postgres::Row) -> Result<Grant, Error> {
    let read = || -> Result<Grant, tokio_postgres::Error> {
        let partition: i32 = row.try_get(0)?;
        let token: i64 = row.try_get(1)?;
        Ok(Grant {
            partition: partition as u16,
            token: token as u64,
            ids_from_unix_ms: row.try_get(2)?,
            ids_before_unix_ms: row.try_get(3)?,
            expires_unix_ms: row.try_get(4)?,
        })
    };
    read().map_err(unexpected_shape)
}

fn unexpected_shape(e: tokio_postgres::Error) -> Error {
    Error::Store {
        detail: format!("sno_partition_leases has an unexpected shape: {e}"),
    }
}

fn millis(d: Duration) -> i64 {
    d.as_millis() as i64
}

impl Store for PostgresStore {
    fn acquire(&mut self, req: &Request<'_>, timeout: Duration) -> Result<Grant, Error> {
        let o = req.options;
        let ns = o.namespace.clone();
        let (first, last, start) = (i32::from(o.first), i32::from(o.last), i32::from(req.start));
        let holder = req.holder.to_owned();
        let (ttl, margin) = (millis(o.ttl), millis(o.margin_duration()));
        // One deadline for the whole acquisition, its retries included.
        let deadline = std::time::Instant::now() + timeout;
        let left = || deadline.saturating_duration_since(std::time::Instant::now());
        let born = self.call(left(), async |c: &Client| {
            c.query_one(HISTORY, &[&ns]).await?.try_get::<_, i64>(0)
        })?;
        let floor = born.saturating_add(ttl);
        let sql = acquire_sql(self.renewed_at.unwrap_or(false));
        // First a partition whose last holder's IDs lie in the past (usable at once), then any
        // free one. A lost race (another acquirer committed the candidate first) tries again,
        // as long as the deadline allows: only a look that finds no candidate at all says that
        // the range is full (see `Outcome`).
        let mut any_bound = false;
        loop {
            let row = self.call(left(), async |c: &Client| {
                c.query_one(
                    &sql,
                    &[
                        &ns, &first, &last, &start, &holder, &ttl, &margin, &any_bound, &floor,
                    ],
                )
                .await
            })?;
            match outcome(&row)? {
                Outcome::Granted(grant) => return Ok(grant),
                Outcome::Lost => continue,
                Outcome::NoCandidate if !any_bound => any_bound = true,
                Outcome::NoCandidate => {
                    return Err(Error::NoFreePartition {
                        namespace: o.namespace.clone(),
                        first: o.first,
                        last: o.last,
                    });
                }
            }
        }
    }

    fn renew(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        timeout: Duration,
    ) -> Result<Grant, Error> {
        let o = req.options;
        let sql = renew_sql(self.renewed_at.unwrap_or(false));
        let ns = o.namespace.clone();
        let partition = i32::from(grant.partition);
        let holder = req.holder.to_owned();
        let token = grant.token as i64;
        let (ttl, margin) = (millis(o.ttl), millis(o.margin_duration()));
        let rows = self.call(timeout, async |c: &Client| {
            c.query(&sql, &[&ns, &partition, &holder, &token, &ttl, &margin])
                .await
        })?;
        match rows.first() {
            Some(row) => {
                let mut renewed = grant_of(row)?;
                renewed.ids_from_unix_ms = grant.ids_from_unix_ms;
                Ok(renewed)
            }
            None => Err(Error::Lost {
                partition: grant.partition,
            }),
        }
    }

    fn status(&mut self, namespace: &str, timeout: Duration) -> Result<(i64, Vec<Holding>), Error> {
        let ns = namespace.to_owned();
        self.call_with(timeout, false, async |c: &Client| {
            let row = c
                .query_one(
                    &format!("{SCHEMA}, (extract(epoch FROM now()) * 1000)::bigint"),
                    &[],
                )
                .await?;
            let (tables, column, now): (bool, bool, i64) = (row.get(0), row.get(1), row.get(2));
            if !tables {
                return Ok((now, Vec::new()));
            }
            Ok((now, c.query(&status_sql(column), &[&ns]).await?))
        })
        .and_then(|(now, rows)| Ok((now, rows.iter().map(holding_of).collect::<Result<_, _>>()?)))
    }

    fn description(&self) -> &str {
        &self.url
    }

    fn release(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        ids_end_unix_ms: i64,
        timeout: Duration,
    ) -> Result<(), Error> {
        let ns = req.options.namespace.clone();
        let partition = i32::from(grant.partition);
        let holder = req.holder.to_owned();
        let token = grant.token as i64;
        self.call(timeout, async |c: &Client| {
            c.execute(
                RELEASE,
                &[&ns, &partition, &holder, &token, &ids_end_unix_ms],
            )
            .await
        })
        .map(drop)
    }
}

/// Whether the server's own words can reach a message.
///
/// PostgreSQL quotes back what the startup packet carried: a role or a database that does not
/// exist, a setting of `options` it refuses (its name, its value, and in the DETAIL whatever
/// the value names), and it first cuts a role or database name to 63 bytes. A name that is
/// not shown in the address's description (it may hold a misplaced password) would therefore
/// leak through the server's words, whole or cut at any point, past any scrubbing that looks
/// for the whole value. So the server's words are shown only while every name it can quote
/// is shown too: a plain user and database name (or none) and no `options`. Otherwise an error
/// is told in our words, from its SQLSTATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServerWords {
    /// Every name the server could quote is in the description: its words are shown.
    Shown,
    /// The address holds a name or an option that is not shown: its words are not.
    Withheld,
}

impl ServerWords {
    fn for_config(config: &Config) -> ServerWords {
        let plain = |name: Option<&str>| name.is_none_or(plain_name);
        if plain(config.get_user()) && plain(config.get_dbname()) && config.get_options().is_none()
        {
            ServerWords::Shown
        } else {
            ServerWords::Withheld
        }
    }

    /// The server's error as a message: its words with its SQLSTATE, or ours for the SQLSTATE.
    fn of(self, db: &tokio_postgres::error::DbError) -> String {
        let code = db.code();
        match self {
            ServerWords::Shown => format!("{} ({})", db.message(), code.code()),
            ServerWords::Withheld => format!(
                "{} ({}; the server's own words are not shown: the address holds a name or an option that is not shown)",
                sqlstate_words(code),
                code.code()
            ),
        }
    }
}

/// What an error the server can answer at connection or to our statements means, in words that
/// quote nothing it sent.
fn sqlstate_words(code: &SqlState) -> &'static str {
    match *code {
        SqlState::INVALID_PASSWORD => "password authentication failed",
        SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
            "the server refused the role: it does not exist, may not log in, or no pg_hba.conf entry lets it connect"
        }
        SqlState::INVALID_CATALOG_NAME => "the database does not exist",
        SqlState::UNDEFINED_OBJECT => {
            "a role, setting or other object that the address names does not exist (options=…)"
        }
        SqlState::INVALID_PARAMETER_VALUE => {
            "a setting of the address's options holds a value the server refuses"
        }
        SqlState::CANT_CHANGE_RUNTIME_PARAM => {
            "a setting of the address's options cannot be changed at connection"
        }
        SqlState::INSUFFICIENT_PRIVILEGE => "permission denied",
        SqlState::TOO_MANY_CONNECTIONS => "too many connections",
        SqlState::CANNOT_CONNECT_NOW => "the server is starting up or shutting down",
        SqlState::ADMIN_SHUTDOWN | SqlState::CRASH_SHUTDOWN => "the server is shutting down",
        SqlState::READ_ONLY_SQL_TRANSACTION => "the server is read-only (a standby)",
        _ => "the server refused the request",
    }
}

/// A driver error in our words: credentials, reachability, or the server's own message (as
/// `words` allows).
fn classify(url: &str, words: ServerWords, e: tokio_postgres::Error) -> Error {
    if let Some(db) = e.as_db_error() {
        let code = db.code();
        let detail = format!("{url}: {}", words.of(db));
        if *code == SqlState::INVALID_PASSWORD
            || *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION
        {
            return Error::AuthenticationFailed { detail };
        }
        // States that pass: too many connections, a server starting up or shutting down, a
        // standby in recovery (a failover in progress), a dropped connection.
        let transient = *code == SqlState::TOO_MANY_CONNECTIONS
            || *code == SqlState::CANNOT_CONNECT_NOW
            || *code == SqlState::ADMIN_SHUTDOWN
            || *code == SqlState::CRASH_SHUTDOWN
            || *code == SqlState::READ_ONLY_SQL_TRANSACTION
            || code.code().starts_with("08");
        if transient {
            return Error::Unreachable { detail };
        }
        return Error::Store { detail };
    }
    // No server error: a TLS failure (a refused certificate, a server without TLS under
    // `sslmode=require`), or the connection failed or closed.
    if let Some(detail) = pg_tls::failure(&e) {
        return Error::Tls {
            detail: format!("{url}: {detail}"),
        };
    }
    // The driver's words with their sources, for the checks below and the message.
    let mut words = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        words = format!("{words}: {s}");
        source = s.source();
    }
    if words.contains("password missing") {
        // The server asked for a password and the address has none: a configuration error,
        // not a store that may answer later.
        return Error::AuthenticationFailed {
            detail: format!("{url}: the server asks for a password and the address gives none"),
        };
    }
    if words.contains("server does not support TLS") {
        return Error::Tls {
            detail: format!("{url}: the server does not accept TLS, and the sslmode requires it"),
        };
    }
    Error::Unreachable {
        detail: format!("{url}: {words}"),
    }
}
