//! Every format's generators: the generator class of each format with one (`generator_class!`:
//! its settings, from the core's table) and the module functions of the process-wide one
//! (`process_functions!`: `<name>_new`, `<name>_new_many`), which `generated.rs` (written from
//! the core's format table by `tests/surfaces`) invokes for each.

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

/// A generator setting's value as the constructor read it: handed to the core's settings, or,
/// `None`, left to the core's default.
pub(crate) trait SettingArg {
    /// Gives `settings` this value of `setting`.
    fn give(self, settings: &mut sno_core::GeneratorSettings, setting: sno_core::Setting);
}

macro_rules! integer_setting_args {
    ($($t:ty),*) => {$(
        impl SettingArg for $t {
            fn give(self, settings: &mut sno_core::GeneratorSettings, setting: sno_core::Setting) {
                settings.set(setting, self.into());
            }
        }
    )*};
}

integer_setting_args!(u8, u16, i64);

impl<T: SettingArg> SettingArg for Option<T> {
    fn give(self, settings: &mut sno_core::GeneratorSettings, setting: sno_core::Setting) {
        if let Some(value) = self {
            value.give(settings, setting);
        }
    }
}

/// Settings the core refuses are `ConfigError`s with the core's code and words (not the decode
/// or time errors the same core error means for values); each argument's range is checked by
/// its reader in `args.rs` first, so these are what only the core knows.
pub(crate) fn settings_error(py: Python<'_>, e: sno_core::Error) -> PyErr {
    match e {
        sno_core::Error::ValueOverflow | sno_core::Error::MillisOutOfRange { .. } => {
            crate::raise_code(
                py,
                "ConfigError",
                e.code(),
                format!("invalid generator settings: {e}"),
            )
        }
        other => to_py(py, other),
    }
}

/// The generator class `$gen` (Python name `$gen_name`, documented by `$doc`) of value class
/// `$class` on the core's generator state of its format (`sno_core::HasGenerator`). Its
/// constructor, of Python signature `$signature`, takes the format's settings (the core's
/// `Format::settings`): each `$arg` read by its reader `$read` of `args.rs` and handed to the
/// core as `Setting::$setting`, and a clock.
macro_rules! generator_class {
    (
        $class:ident, $gen:ident, $gen_name:literal, $doc:literal, ($($signature:tt)*)
        $(, $arg:ident: $ty:ty = $setting:ident by $read:ident)* $(,)?
    ) => {
        #[doc = $doc]
        #[pyclass(frozen, module = "sno", name = $gen_name)]
        pub(crate) struct $gen(
            pub(crate) sno_core::monotonic::Shared<
                <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::State,
            >,
        );

        #[pymethods]
        impl $gen {
            #[new]
            #[pyo3(signature = ($($signature)*))]
            fn py_new(
                py: Python<'_>,
                $(#[pyo3(from_py_with = $crate::args::$read)] $arg: $ty,)*
                #[pyo3(from_py_with = $crate::args::clock)] clock: Option<sno_core::SystemClock>,
            ) -> PyResult<Self> {
                #[allow(unused_mut)]
                let mut settings = sno_core::GeneratorSettings::new();
                $($crate::generators::SettingArg::give(
                    $arg,
                    &mut settings,
                    sno_core::Setting::$setting,
                );)*
                let state = <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::state(
                    &settings,
                )
                .map_err(|e| $crate::generators::settings_error(py, e))?;
                Ok($gen(sno_core::monotonic::Shared::with_state_and_clock(
                    state,
                    clock.unwrap_or_default(),
                )))
            }

            #[doc = "The next value, in the order the class's description gives, waiting where it says `new` waits."]
            #[pyo3(name = "new")]
            fn next_value(&self, py: Python<'_>) -> PyResult<$class> {
                $crate::batch::next(py, &self.0).map($class)
            }

            #[doc = "Like `new`, but raises at once where `new` would wait (`RandomnessExhaustedError`, `ClockRegressionError`)."]
            fn try_new(&self, py: Python<'_>) -> PyResult<$class> {
                self.0
                    .try_next()
                    .map($class)
                    .map_err(|e| $crate::to_py(py, e))
            }

            #[doc = "The next value for an explicit time in Unix milliseconds (the clock is not read); outside the format's range a `TimeRangeError`."]
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
pub(crate) use generator_class;

/// The module functions `$new` / `$new_many` of value class `$class`, drawing from the
/// process-wide generator of its core type (`sno_core::ProcessWide`).
macro_rules! process_functions {
    ($class:ident, $new:ident, $new_many:ident) => {
        /// A new value from the process-wide generator (reset after `os.fork()`); a system
        /// clock outside the format's range is a `TimeRangeError`.
        #[pyfunction]
        fn $new(py: Python<'_>) -> PyResult<$class> {
            $crate::generators::global(py)
                .map($class)
                .map_err(|e| $crate::to_py(py, e))
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
pub(crate) use process_functions;

/// The next value of `T`'s process-wide generator (`try_new_nonblocking`, then `try_new` with the
/// thread detached where that would wait).
pub(crate) fn global<T: sno_core::ProcessWide>(py: Python<'_>) -> Result<T, sno_core::Error> {
    global_value(py, T::try_new_nonblocking, T::try_new)
}
