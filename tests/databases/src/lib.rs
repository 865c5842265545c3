//! What the database tests share: a throwaway PostgreSQL server (`scripts/store-server`,
//! stopped on drop, also when a test fails; a test fails loudly when it cannot start), IDs of
//! every format generated in order, and a shuffle.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, Weak};

use sno_core::{AnyId, Format, IdFormat};

/// How many IDs each format's round trip stores.
pub const COUNT: usize = 10_000;

/// The prefix of the generated TypeIDs (a `uuid` / `BLOB` column stores the UUID only: the
/// tests give it back with [`with_prefix`]).
pub const TYPEID_PREFIX: &str = "user";

/// A running PostgreSQL server in a temporary directory.
pub struct Server {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    pub url: String,
    dir: PathBuf,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/store-server")
}

/// A loopback port nothing listens on (bound and released at once).
fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("local address").port()
}

fn run(args: &[&str]) -> String {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .expect("run scripts/store-server");
    assert!(
        out.status.success(),
        "scripts/store-server {args:?} failed (is Debian's postgresql installed?):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

impl Server {
    /// Starts a server in a directory under `$SNO_TEST_STORE_ROOT` (else the temporary
    /// directory); panics (fails the test) if it cannot.
    pub fn start() -> Server {
        let root = std::env::var_os("SNO_TEST_STORE_ROOT")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
        let port = free_port();
        let dir = root.join(format!("sno-db-pg-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the server directory");
        let url = run(&[
            "start",
            "pg",
            dir.to_str().expect("UTF-8 path"),
            &port.to_string(),
        ])
        .trim()
        .to_owned();
        Server { url, dir }
    }

    /// The server the tests of one binary share: started by the first caller, stopped when the
    /// last holder drops it.
    pub fn shared() -> Arc<Server> {
        static SHARED: Mutex<Weak<Server>> = Mutex::new(Weak::new());
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(server) = shared.upgrade() {
            return server;
        }
        let server = Arc::new(Server::start());
        *shared = Arc::downgrade(&server);
        server
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", "pg", self.dir.to_str().unwrap_or("")])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `n` IDs of `format` from one monotonic generator of the format (sno: a fixed partition;
/// TypeID: the prefix [`TYPEID_PREFIX`]), checked to be strictly increasing.
pub fn generate(format: Format, n: usize) -> Vec<AnyId> {
    use sno_core::{nanoflake, rng::ThreadRng, scru128, scru160, ulid, ulidflake, uuid7};
    let mut next: Box<dyn FnMut() -> Result<AnyId, sno_core::Error>> = match format {
        Format::Sno => {
            let g = sno_core::Generator::builder()
                .partition(0x0a0b)
                .build()
                .expect("a sno generator");
            Box::new(move || g.next(7).map(AnyId::from))
        }
        Format::Ulid => {
            let g = ulid::AtomicGenerator::default();
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::Uuid7 => {
            let g = uuid7::Generator::new(uuid7::Monotonic::new(ThreadRng));
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::Scru128 => {
            let g = scru128::Generator::new(scru128::Monotonic::new(ThreadRng));
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::Scru160 => {
            let g = scru160::Generator::new(scru160::Monotonic::new(ThreadRng));
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::Nanoflake => {
            let state = nanoflake::Monotonic::new(1_700_000_000_000, 42).expect("a state");
            let g = nanoflake::Generator::new(state);
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::UlidFlake => {
            let g = ulidflake::Generator::new(ulidflake::Monotonic::new(ThreadRng));
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::TypeId => {
            let g = uuid7::Generator::new(uuid7::Monotonic::new(ThreadRng));
            Box::new(move || {
                let uuid = g.next()?;
                sno_core::typeid::TypeId::from_uuid7(TYPEID_PREFIX, uuid).map(AnyId::from)
            })
        }
        // Any other format: its process-wide generator (the core's table says which have one).
        other if other.has_process_generator() => Box::new(move || {
            AnyId::try_new(other).expect("the table says the format has a process-wide generator")
        }),
        other => panic!("no generator for {other} in the database tests"),
    };
    let ids: Vec<AnyId> = (0..n)
        .map(|_| next().expect("the generator makes an ID"))
        .collect();
    assert!(
        ids.windows(2).all(|w| w[0].as_slice() < w[1].as_slice()),
        "{format}: the generator's IDs are not strictly increasing"
    );
    ids
}

/// [`generate`] as the format's own type (through the canonical text, which keeps a TypeID's
/// prefix), checked to be in order by `Ord` too.
pub fn generate_as<T: IdFormat>(n: usize) -> Vec<T> {
    let ids: Vec<T> = generate(T::FORMAT, n)
        .iter()
        .map(|id| T::decode(id.text().as_bytes()).expect("the text decodes"))
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert!(sorted == ids, "{}: generated IDs not in order", T::FORMAT);
    ids
}

/// An ID read back from its binary form, as generated: a TypeID gets [`TYPEID_PREFIX`] back
/// (its column stores the UUID only); other formats are unchanged.
pub fn with_prefix<T: IdFormat>(id: T) -> T {
    if T::FORMAT != Format::TypeId {
        return id;
    }
    T::decode(format!("{TYPEID_PREFIX}_{}", id.text()).as_bytes()).expect("a prefixed TypeID")
}

/// A Fisher–Yates shuffle with a seed from the clock (printed, to replay a failure).
pub fn shuffled<T: Clone>(items: &[T]) -> Vec<T> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 | 1);
    println!("shuffle seed {seed}");
    let mut state = seed;
    let mut next = || {
        // splitmix64
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = items.to_vec();
    for i in (1..out.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// The binary form of a wrong length for `format` (one byte short).
pub fn short_bytes(format: Format) -> Vec<u8> {
    vec![1; format.binary_len() - 1]
}
