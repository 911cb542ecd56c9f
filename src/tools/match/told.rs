//! Which rules a match's referee judges by: `-rules`, else what the engines are told.

use crate::board::Rules;

/// The variant names `-variant` takes, for messages.
pub fn variant_names() -> String {
    Rules::ALL.map(|r| r.name).join(", ")
}

/// The rules the referee judges by: `flag` (`-rules`), else the `Rules` option values the
/// two engines are given (`told`) when both name the same rule set, else the variant's.
/// Engines told different rule sets need `-rules` to say which the referee keeps.
pub fn referee_rules(
    flag: Option<&'static Rules>,
    told: [Option<&str>; 2],
    variant: &str,
) -> Result<&'static Rules, String> {
    if let Some(r) = flag {
        return Ok(r);
    }
    let named = |v: Option<&str>| match v {
        Some(v) if !v.eq_ignore_ascii_case("variant") => Rules::by_name(v),
        _ => None,
    };
    let variant = Rules::by_name(variant).unwrap_or(&Rules::FAIRY_STOCKFISH);
    match (named(told[0]), named(told[1])) {
        (a, b) if a == b => Ok(a.unwrap_or(variant)),
        _ => Err("the engines are told different rule sets (option.Rules); say with -rules which the referee \
                  judges by"
            .to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_referee_follows_the_flag_then_the_engines_then_the_variant() {
        let fed = Some(&Rules::FEDERATION);
        assert_eq!(referee_rules(Some(&Rules::CLUB), [Some("federation"); 2], "sittuyin"), Ok(&Rules::CLUB));
        assert_eq!(referee_rules(None, [Some("federation"); 2], "sittuyin").ok(), fed);
        assert_eq!(referee_rules(None, [None, Some("variant")], "sittuyin-federation").ok(), fed);
        assert_eq!(referee_rules(None, [None; 2], "sittuyin"), Ok(&Rules::FAIRY_STOCKFISH));
        assert!(referee_rules(None, [Some("club"), None], "sittuyin").is_err());
    }
}
