//! The settings of a format's monotonic generator ([`GeneratorSettings`]) and what a format
//! implements to be made from them ([`HasGenerator`]). Below the formats' modules, which
//! implement the trait; [`AnyGenerator`](crate::AnyGenerator), above them, makes the generator
//! of any format from the table.

#[cfg(feature = "std")]
use crate::clock::SystemClock;
use crate::error::Error;
use crate::format::Setting;
use crate::model::IdFormat;
use crate::monotonic::MillisState;

/// How many [`Setting`]s there are (the slots of [`GeneratorSettings`]).
const SETTINGS: usize = Setting::Prefix as usize + 1;

/// The settings of one generator, by [`Setting`] (numbers), and (with `std`) its clock. A
/// binding fills it from its own arguments by the settings' names
/// ([`Format::settings`](crate::Format::settings)); the format checks the values when the
/// generator is made.
///
/// ```
/// use sno_core::{GeneratorSettings, Setting};
///
/// let mut settings = GeneratorSettings::new();
/// settings.set(Setting::GeneratorId, 7);
/// assert_eq!(settings.get(Setting::GeneratorId), Some(7));
/// assert_eq!(settings.get(Setting::EpochMs), None);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct GeneratorSettings {
    values: [Option<i64>; SETTINGS],
    #[cfg(feature = "std")]
    clock: SystemClock,
}

impl GeneratorSettings {
    /// No setting given, the default (precise) system clock.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `setting` to `value` (checked when the generator is made).
    pub fn set(&mut self, setting: Setting, value: i64) -> &mut Self {
        self.values[setting as usize] = Some(value);
        self
    }

    /// The value given for `setting`.
    pub fn get(&self, setting: Setting) -> Option<i64> {
        self.values[setting as usize]
    }

    /// Reads time from `clock`.
    #[cfg(feature = "std")]
    pub fn clock(&mut self, clock: SystemClock) -> &mut Self {
        self.clock = clock;
        self
    }

    /// The clock the generator reads.
    #[cfg(feature = "std")]
    pub fn system_clock(&self) -> SystemClock {
        self.clock
    }

    /// `setting` as a `T` in `min ..= max`, or `default` when not given.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the setting, with `reason`, outside the range, or when
    /// it is not given and there is no default.
    pub fn int<T: TryFrom<i64>>(
        &self,
        setting: Setting,
        (min, max): (i64, i64),
        default: Option<T>,
        reason: &'static str,
    ) -> Result<T, Error> {
        let invalid = Error::InvalidArgument {
            name: setting.name(),
            reason,
        };
        match self.get(setting) {
            None => default.ok_or(Error::InvalidArgument {
                name: setting.name(),
                reason: "is required",
            }),
            Some(v) if (min..=max).contains(&v) => T::try_from(v).map_err(|_| invalid),
            Some(_) => Err(invalid),
        }
    }
}

/// A format with a monotonic generator made from [`GeneratorSettings`] alone
/// (`generator: true` in the format table): [`AnyGenerator`](crate::AnyGenerator) makes it.
pub trait HasGenerator: IdFormat {
    /// The generator's state.
    type State: MillisState<Id = Self> + Clone + Send + 'static;

    /// A fresh state from `settings` (those of the format's
    /// [`settings`](crate::Format::settings); others are not read).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a setting outside its range or a required one missing.
    fn state(settings: &GeneratorSettings) -> Result<Self::State, Error>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_checks_range_default_and_presence() {
        let mut s = GeneratorSettings::new();
        let sid =
            |s: &GeneratorSettings| s.int::<u8>(Setting::Sid, (0, 31), None, "must be 0 ..= 31");
        assert_eq!(
            sid(&s),
            Err(Error::InvalidArgument {
                name: "sid",
                reason: "is required"
            })
        );
        assert_eq!(s.int::<u8>(Setting::Sid, (0, 31), Some(4), "x"), Ok(4));
        s.set(Setting::Sid, 31);
        assert_eq!(sid(&s), Ok(31));
        s.set(Setting::Sid, 32);
        assert_eq!(
            sid(&s),
            Err(Error::InvalidArgument {
                name: "sid",
                reason: "must be 0 ..= 31"
            })
        );
        s.set(Setting::Sid, -1);
        assert!(sid(&s).is_err());
    }
}
