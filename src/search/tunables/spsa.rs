//! The SPSA table as UCI options: a tuning build (`--features spsa`)
//! declares every constant of the `tunables!` table as a spin
//! option and takes `setoption` for it; a normal build declares none.

use super::TUNABLES;
#[cfg(feature = "spsa")]
use super::set_tunable;
use super::tunable::TunableSpec;

/// Is this a tuning build (the constants are UCI options)?
pub const TUNING_BUILD: bool = cfg!(feature = "spsa");

/// The constants a tuning build declares as spin options (none in a normal
/// build); `uci::protocol` writes their declarations.
pub fn uci_options() -> &'static [TunableSpec] {
    if TUNING_BUILD { TUNABLES } else { &[] }
}

/// `setoption` for a tunable constant: `None` when `name` is none (or this is
/// not a tuning build), else whether the value was taken.
pub fn set_option(name: &str, value: Option<&str>) -> Option<Result<(), String>> {
    let spec = TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
        .filter(|_| TUNING_BUILD)?;
    let text = value.map(str::trim).unwrap_or("");
    let result = match text.parse::<i32>() {
        Ok(v) if (spec.min..=spec.max).contains(&v) => {
            store(spec.name, v);
            Ok(())
        }
        Ok(v) => Err(format!(
            "option {}: {v} is outside {}..{}",
            spec.name, spec.min, spec.max
        )),
        Err(_) => Err(format!(
            "option {}: '{text}' is not a whole number",
            spec.name
        )),
    };
    Some(result)
}

#[cfg(feature = "spsa")]
fn store(name: &str, value: i32) {
    set_tunable(name, value);
}

#[cfg(not(feature = "spsa"))]
fn store(_name: &str, _value: i32) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0.0, "{t:?}");
            assert_eq!(TUNABLES.iter().filter(|u| u.name == t.name).count(), 1);
        }
    }

    #[test]
    fn openbench_lines_have_seven_fields() {
        let line = TUNABLES[0].openbench_line();
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[1], "int");
        assert_eq!(fields[6], "0.002");
    }

    #[test]
    fn only_a_tuning_build_declares_or_takes_the_constants() {
        assert_eq!(
            uci_options().len(),
            TUNABLES.len() * usize::from(TUNING_BUILD)
        );
        let name = TUNABLES[0].name;
        let taken = set_option(name, Some(&TUNABLES[0].default.to_string()));
        assert_eq!(taken.is_some(), TUNING_BUILD);
        assert_eq!(set_option("No Such Constant", Some("1")), None);
        if TUNING_BUILD {
            assert!(set_option(name, Some("99999")).unwrap().is_err());
            assert!(set_option(name, Some("x")).unwrap().is_err());
        }
    }
}
