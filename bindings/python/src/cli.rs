//! `sno._sno._run_cli`: the `sno` console script (`python -m sno`), which is the `sno-cli`
//! crate's [`sno_cli::run`] writing to Python's `sys.stdout` and `sys.stderr`, so that it prints
//! exactly what the Rust binary `sno` prints and redirection and capture work.

use std::ffi::OsString;
use std::io;

use pyo3::exceptions::{PyBrokenPipeError, PyOSError};
use pyo3::prelude::*;

/// A Python text stream as an [`io::Write`]: whole UTF-8 characters are passed to its `write`
/// (a character split between two writes waits for its end); pending signals are checked before
/// each write, so Ctrl-C ends a long `sno new -n`.
struct Stream<'py> {
    stream: Bound<'py, PyAny>,
    pending: Vec<u8>,
    /// An exception that is not an `OSError` (`KeyboardInterrupt`, a stream without `write`):
    /// raised once the command has returned. An `OSError` ends the command like a failed write
    /// of the binary does.
    raised: Option<PyErr>,
}

impl<'py> Stream<'py> {
    fn new(stream: Bound<'py, PyAny>) -> Self {
        Stream {
            stream,
            pending: Vec::new(),
            raised: None,
        }
    }

    fn fail(&mut self, e: PyErr) -> io::Error {
        let py = self.stream.py();
        let kind = if e.is_instance_of::<PyBrokenPipeError>(py) {
            io::ErrorKind::BrokenPipe
        } else {
            io::ErrorKind::Other
        };
        let error = io::Error::new(kind, e.value(py).to_string());
        if !e.is_instance_of::<PyOSError>(py) {
            self.raised.get_or_insert(e);
        }
        error
    }

    fn write_text(&mut self, text: String) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        match self.stream.call_method1("write", (text,)) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.fail(e)),
        }
    }
}

impl io::Write for Stream<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Err(e) = self.stream.py().check_signals() {
            return Err(self.fail(e));
        }
        self.pending.extend_from_slice(buf);
        let complete = match std::str::from_utf8(&self.pending) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => self.pending.len(),
        };
        let text = String::from_utf8_lossy(&self.pending[..complete]).into_owned();
        self.pending.drain(..complete);
        self.write_text(text)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.stream.call_method0("flush") {
            Ok(_) => Ok(()),
            Err(e) => Err(self.fail(e)),
        }
    }
}

/// Runs the `sno` command line on `argv` (default `sys.argv`; the first item is the program
/// name), writing to `sys.stdout` and `sys.stderr`, and returns the exit status (0 ok, 1 an ID
/// could not be read, converted or generated, 2 usage error).
#[pyfunction(name = "_run_cli")]
#[pyo3(signature = (argv = None))]
fn run_cli(py: Python<'_>, argv: Option<Vec<OsString>>) -> PyResult<i32> {
    let sys = py.import("sys")?;
    let argv: Vec<OsString> = match argv {
        Some(argv) => argv,
        None => sys.getattr("argv")?.extract()?,
    };
    let mut out = Stream::new(sys.getattr("stdout")?);
    let mut err = Stream::new(sys.getattr("stderr")?);
    let code = sno_cli::run(argv, &mut out, &mut err);
    for stream in [&mut out, &mut err] {
        let tail = String::from_utf8_lossy(&std::mem::take(&mut stream.pending)).into_owned();
        let _ = stream.write_text(tail);
    }
    match out.raised.or(err.raised) {
        Some(e) => Err(e),
        None => Ok(code),
    }
}

/// Adds `_run_cli` to the module, private: not in its `__all__` (nor in `_sno.pyi`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.setattr("_run_cli", wrap_pyfunction!(run_cli, m)?)
}
