//! Every format's generators: the process-wide one (`<name>_new`, `<name>_new_many`) and
//! `monotonic!`, the generator class of a format with a process-wide generator and no settings,
//! which `generated.rs` (written from the core's format table by `tests/surfaces`) invokes for
//! each.

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::batch::{global_value, list_of};
use crate::to_py;
use crate::values::*;

/// `n` values of `make`, as a list of objects or, with `as_str`, of their text; signals are
/// checked between chunks.
pub(crate) fn new_list<'py, T, W>(
    py: Python<'py>,
    n: usize,
    as_str: bool,
    make: impl Fn() -> Result<T, sno_core::Error>,
    wrap: impl Fn(T) -> W,
) -> PyResult<Bound<'py, PyList>>
where
    T: sno_core::IdFormat,
    W: IntoPyObject<'py>,
{
    use pyo3::IntoPyObjectExt;
    let make = || make().map_err(|e| to_py(py, e));
    if as_str {
        list_of(py, n, |_| Ok(text(py, &make()?)?.into_any()))
    } else {
        list_of(py, n, |_| wrap(make()?).into_bound_py_any(py))
    }
}

/// The generator class `$gen` (Python name `$gen_name`) of value class `$class` on the core's
/// generator state of its format (`sno_core::HasGenerator`, of no settings), and the module
/// functions `$new` / `$new_many` drawing from the process-wide generator of the class's core
/// type (`sno_core::ProcessWide`).
macro_rules! monotonic {
    ($class:ident, $gen:ident, $gen_name:literal, $new:ident, $new_many:ident) => {
        #[doc = concat!("A thread-safe monotonic generator on the system clock (`sno.", $gen_name, "`).")]
        #[pyclass(frozen, module = "sno", name = $gen_name)]
        pub(crate) struct $gen(
            sno_core::monotonic::Shared<
                <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::State,
            >,
        );

        #[pymethods]
        impl $gen {
            #[new]
            #[pyo3(signature = (*, clock = None))]
            fn py_new(
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::clock)] clock: Option<sno_core::SystemClock>,
            ) -> PyResult<Self> {
                let settings = sno_core::GeneratorSettings::new();
                let state = <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::state(
                    &settings,
                )
                .map_err(|e| $crate::to_py(py, e))?;
                Ok($gen(sno_core::monotonic::Shared::with_state_and_clock(
                    state,
                    clock.unwrap_or_default(),
                )))
            }
        }

        $crate::generators::generator_methods!(
            $gen,
            $class,
            $gen_name,
            "The next value, greater than every earlier one of this generator.",
            "Like `new`, but raises at once where `new` would wait (a millisecond's randomness used up: `RandomnessExhaustedError`).",
            "The next value for an explicit time in Unix milliseconds (the clock is not read); outside the format's range a `TimeRangeError`."
        );

        /// A new value from the process-wide generator (reset after `os.fork()`); a system
        /// clock outside the format's range is a `TimeRangeError`.
        #[pyfunction]
        fn $new(py: Python<'_>) -> PyResult<$class> {
            $crate::generators::process_value(py).map($class)
        }

        /// `n` new values from the process-wide generator, as objects or (`as_str=True`) their
        /// text.
        #[pyfunction]
        #[pyo3(signature = (n, *, as_str = false))]
        fn $new_many<'py>(
            py: Python<'py>,
            #[pyo3(from_py_with = $crate::args::count)] n: usize,
            as_str: bool,
        ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
            $crate::generators::new_list(py, n, as_str, || $crate::generators::global(py), $class)
        }
    };
}
pub(crate) use monotonic;

/// The methods every generator class has over its core generator (`.0`, a `Shared`): `new`
/// (`$new_doc`), `try_new` (`$try_doc`), `new_at_unix_ms` (`$at_doc`), the deprecated `new_at`,
/// and `repr()` (`sno.$gen_name()`).
macro_rules! generator_methods {
    ($gen:ident, $class:ident, $gen_name:literal, $new_doc:literal, $try_doc:literal, $at_doc:literal) => {
        #[pymethods]
        impl $gen {
            #[doc = $new_doc]
            #[pyo3(name = "new")]
            fn next_value(&self, py: Python<'_>) -> PyResult<$class> {
                $crate::batch::next(py, &self.0).map($class)
            }

            #[doc = $try_doc]
            fn try_new(&self, py: Python<'_>) -> PyResult<$class> {
                self.0
                    .try_next()
                    .map($class)
                    .map_err(|e| $crate::to_py(py, e))
            }

            #[doc = $at_doc]
            fn new_at_unix_ms(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                self.0
                    .next_at_unix_ms(unix_ms)
                    .map($class)
                    .map_err(|e| $crate::to_py(py, e))
            }

            /// The old name of `new_at_unix_ms` (a `DeprecationWarning`).
            fn new_at(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                $crate::errors::deprecated(py, "new_at", "new_at_unix_ms")?;
                self.new_at_unix_ms(py, unix_ms)
            }

            fn __repr__(&self) -> &'static str {
                concat!("sno.", $gen_name, "()")
            }
        }
    };
}
pub(crate) use generator_methods;

/// The next value of `T`'s process-wide generator, waiting (detached from the interpreter)
/// where it must, as a Python exception.
pub(crate) fn process_value<T: sno_core::ProcessWide>(py: Python<'_>) -> PyResult<T> {
    global(py).map_err(|e| to_py(py, e))
}

/// The next value of `T`'s process-wide generator (`try_new_nonblocking`, then `try_new` with the
/// thread detached where that would wait).
pub(crate) fn global<T: sno_core::ProcessWide>(py: Python<'_>) -> Result<T, sno_core::Error> {
    global_value(py, T::try_new_nonblocking, T::try_new)
}
