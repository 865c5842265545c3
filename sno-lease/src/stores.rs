//! Choosing a lease store by URL: PostgreSQL or Redis, as compiled in.

use crate::error::Error;
use crate::store::Store;

/// The store behind `url`, chosen by scheme. Nothing is connected yet: the first call
/// connects (and reconnects after a failure).
pub(crate) fn open(url: &str) -> Result<Box<dyn Store>, Error> {
    let Some((scheme, _)) = url.split_once("://") else {
        // libpq's `host=… port=… user=…` form: PostgreSQL.
        if url.contains('=') {
            return open_postgres(url);
        }
        // Not echoed: without a scheme there is no telling where a password would be.
        return Err(Error::InvalidUrl {
            detail: "the URL has no scheme: use postgres://…, redis://… or libpq's key=value form"
                .into(),
        });
    };
    let scheme = scheme.to_ascii_lowercase();
    match scheme.as_str() {
        "postgres" | "postgresql" => open_postgres(url),
        "redis" | "rediss" | "redis+unix" | "unix" => open_redis(url),
        // A scheme is no secret, but only a word that looks like one is shown.
        other if other.len() <= 16 && other.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) => {
            Err(Error::InvalidUrl {
                detail: format!(
                    "unknown scheme {other:?}: use postgres://, postgresql://, redis://, rediss://, redis+unix:// or unix://"
                ),
            })
        }
        _ => Err(Error::InvalidUrl {
            detail: "the URL's scheme is not valid: use postgres://, postgresql://, redis://, rediss://, redis+unix:// or unix://".into(),
        }),
    }
}

#[cfg(feature = "postgres")]
fn open_postgres(url: &str) -> Result<Box<dyn Store>, Error> {
    Ok(Box::new(crate::postgres::PostgresStore::open(url)?))
}

#[cfg(not(feature = "postgres"))]
fn open_postgres(_url: &str) -> Result<Box<dyn Store>, Error> {
    Err(Error::InvalidUrl {
        detail: "this build has no PostgreSQL store (cargo feature `postgres`)".into(),
    })
}

#[cfg(feature = "redis")]
fn open_redis(url: &str) -> Result<Box<dyn Store>, Error> {
    Ok(Box::new(crate::redis::RedisStore::open(url)?))
}

#[cfg(not(feature = "redis"))]
fn open_redis(_url: &str) -> Result<Box<dyn Store>, Error> {
    Err(Error::InvalidUrl {
        detail: "this build has no Redis store (cargo feature `redis`)".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_messages() {
        for (url, secret) in [
            ("app:hunter2@db:5432/app", "hunter2"),
            ("pass word://u@h", "pass word"),
        ] {
            let e = open(url).err().unwrap().to_string();
            assert!(!e.contains(secret), "{e}");
        }
    }

    #[test]
    fn stores_left_out_of_the_build_say_so() {
        let e = |u: &str| open(u).err().map(|e| e.to_string());
        #[cfg(not(feature = "redis"))]
        assert!(e("redis://127.0.0.1/").unwrap().contains("no Redis store"));
        #[cfg(not(feature = "postgres"))]
        assert!(
            e("postgres://127.0.0.1/db")
                .unwrap()
                .contains("no PostgreSQL store")
        );
        #[cfg(feature = "redis")]
        assert_eq!(e("redis://127.0.0.1/"), None, "opening does not connect");
        #[cfg(feature = "postgres")]
        assert_eq!(
            e("postgres://u@127.0.0.1/db"),
            None,
            "opening does not connect"
        );
    }

    #[test]
    fn schemes() {
        let e = |u: &str| open(u).err().unwrap();
        assert_eq!(e("localhost:5432").code(), "lease_invalid_url");
        assert_eq!(e("mysql://h/db").code(), "lease_invalid_url");
        assert!(e("ftp://u:pw@h").to_string().contains("ftp"));
    }
}
