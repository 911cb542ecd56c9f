//! Every tunable search constant, named, with its range, and `SearchParams`, the value a
//! search reads them from. A search copies its settings when it starts and each thread keeps
//! its copy for the whole search, so a `setoption` (or a tuner) changes the next search, never
//! a running one, and two searches in one process (tests) can use different settings.

/// One tunable constant: its name, range and doc, and how to reach it in a `SearchParams`.
pub struct Param {
    /// The name, as the tuner and `setoption` know it.
    pub name: &'static str,
    /// Whether SPSA may tune it (feature switches are for ablation matches, not tuning).
    pub tunable: bool,
    /// The built-in value.
    pub default: i32,
    /// The lowest sensible value.
    pub min: i32,
    /// The highest sensible value.
    pub max: i32,
    /// What it controls (its doc line in this file, which SPSA reprints with new defaults).
    pub doc: &'static str,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl Param {
    /// Its value in `params` (a feature switch reads 1 when on, 0 when off).
    pub fn get(&self, params: &SearchParams) -> i32 {
        (self.get)(params)
    }

    /// Sets its value in `params`, clamped to the range.
    pub fn set(&self, params: &mut SearchParams, v: i32) {
        (self.set)(params, v.clamp(self.min, self.max))
    }
}

/// Sorts the table's lines into feature switches (range exactly 0 to 1, a `bool` field) and
/// constants (an `i32` field), keeping the table's order for `ALL`, then emits the `Param`
/// statics and `SearchParams`. The lines stay in the form SPSA prints them.
macro_rules! params {
    (@sort [$($sw:tt)*] [$($c:tt)*] [$($all:ident)*]) => {
        params!(@emit [$($sw)*] [$($c)*] [$($all)*]);
    };
    (@sort [$($sw:tt)*] [$($c:tt)*] [$($all:ident)*]
        $name:ident = $default:tt, 0, 1; $doc:literal $($rest:tt)*) => {
        params!(@sort [$($sw)* ($name, $default, $doc)] [$($c)*] [$($all)* $name] $($rest)*);
    };
    (@sort [$($sw:tt)*] [$($c:tt)*] [$($all:ident)*]
        $name:ident = $default:expr, $min:expr, $max:expr; $doc:literal $($rest:tt)*) => {
        params!(@sort [$($sw)*] [$($c)* ($name, $default, $min, $max, $doc)] [$($all)* $name] $($rest)*);
    };
    (@emit [$(($sw:ident, $sw_default:tt, $sw_doc:literal))*]
        [$(($c:ident, $c_default:expr, $c_min:expr, $c_max:expr, $c_doc:literal))*] [$($all:ident)*]) => {
        $(
            #[doc = $sw_doc]
            pub static $sw: Param = Param {
                name: stringify!($sw),
                tunable: false,
                default: $sw_default,
                min: 0,
                max: 1,
                doc: $sw_doc,
                get: |s| s.$sw as i32,
                set: |s, v| s.$sw = v != 0,
            };
        )*
        $(
            #[doc = $c_doc]
            pub static $c: Param = Param {
                name: stringify!($c),
                tunable: true,
                default: $c_default,
                min: $c_min,
                max: $c_max,
                doc: $c_doc,
                get: |s| s.$c,
                set: |s, v| s.$c = v,
            };
        )*
        /// Every tunable constant, in the table's order.
        pub static ALL: &[&Param] = &[$(&$all),*];

        /// The settings of one search: every switch and constant of the table as a plain field,
        /// named as `setoption` and SPSA name it (hence the upper case).
        #[allow(non_snake_case)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(#[doc = $sw_doc] pub $sw: bool,)*
            $(#[doc = $c_doc] pub $c: i32,)*
        }

        impl SearchParams {
            /// The built-in settings.
            pub const DEFAULT: SearchParams = SearchParams {
                $($sw: $sw_default != 0,)*
                $($c: $c_default,)*
            };
        }
    };
    ($($line:tt)*) => {
        params!(@sort [] [] [] $($line)*);
    };
}

params! {
    USE_RFP = 1, 0, 1; "Feature switch: reverse futility pruning."
    USE_FUTILITY = 1, 0, 1; "Feature switch: futility pruning of quiet moves."
    USE_LMP = 1, 0, 1; "Feature switch: late move pruning."
    USE_SEE_PRUNING = 1, 0, 1; "Feature switch: SEE pruning of quiet moves and captures."
    USE_LMR = 1, 0, 1; "Feature switch: late move reductions."
    USE_IIR = 1, 0, 1; "Feature switch: internal iterative reduction."
    USE_CHECK_EXT = 1, 0, 1; "Feature switch: check extension."
    USE_SINGULAR = 1, 0, 1; "Feature switch: singular extension (and multi-cut)."
    USE_QS_CHECKS = 1, 0, 1; "Feature switch: quiet checks at the first ply of quiescence search."
    USE_CLOCK_TT = 1, 0, 1; "Feature switch: the table keeps evaluations the clocks have not faded, and no cutoff near the count's end."
    ASPIRATION_WINDOW = 25, 5, 100; "Half-width of the first aspiration window, centipawns."
    RFP_MAX_DEPTH = 8, 2, 12; "Reverse futility pruning: deepest depth it applies at."
    RFP_MARGIN = 80, 20, 200; "Reverse futility pruning: margin per ply of depth."
    FUTILITY_MAX_DEPTH = 8, 2, 12; "Futility pruning of quiet moves: deepest depth."
    FUTILITY_BASE = 90, 20, 300; "Futility pruning: base margin."
    FUTILITY_MARGIN = 100, 20, 300; "Futility pruning: margin per ply."
    LMP_BASE = 3, 1, 10; "Late move pruning: quiet moves tried before pruning is (base + depth^2)."
    SEE_QUIET_MARGIN = 60, 10, 200; "SEE pruning of quiet moves: allowed loss per ply."
    SEE_NOISY_MARGIN = 30, 5, 150; "SEE pruning of captures: allowed loss per ply squared."
    LMR_BASE = 80, 0, 200; "Late move reductions: base, in hundredths of a ply."
    LMR_DIV = 220, 100, 400; "Late move reductions: divisor of ln(depth) ln(moves), hundredths."
    LMR_HISTORY_DIV = 8000, 2000, 20000; "Late move reductions: one ply less per this much history."
    HISTORY_BONUS_MUL = 160, 50, 400; "History bonus per ply of depth."
    HISTORY_BONUS_MAX = 1600, 400, 4000; "Largest history bonus."
    SE_MIN_DEPTH = 7, 4, 12; "Singular extensions: shallowest depth."
    SE_MARGIN = 2, 1, 6; "Singular extensions: margin per ply of depth."
    IIR_MIN_DEPTH = 4, 2, 10; "Internal iterative reduction: shallowest depth without a TT move."
    QS_DELTA = 200, 50, 600; "Quiescence delta pruning margin."
    ORDER_PST_MUL = 0, 0, 64; "Quiet move ordering: weight of the piece-square gain."
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// Looks a constant up by name (case-insensitive).
pub fn find(name: &str) -> Option<&'static Param> {
    ALL.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for p in ALL {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(names.insert(p.name));
            assert_eq!(p.tunable, !p.name.starts_with("USE_"), "{}", p.name);
        }
        assert!(find("lmr_base").is_some());
    }

    #[test]
    fn each_constant_reads_and_writes_its_own_field() {
        let defaults = SearchParams::default();
        for p in ALL {
            assert_eq!(p.get(&defaults), p.default, "{}", p.name);
            // Each end of the range in turn, in otherwise default settings.
            for v in [p.min, p.max] {
                let mut s = defaults;
                p.set(&mut s, v);
                assert_eq!(p.get(&s), v, "{}", p.name);
                for other in ALL.iter().filter(|o| o.name != p.name) {
                    assert_eq!(other.get(&s), other.default, "setting {} changed {}", p.name, other.name);
                }
            }
            let mut s = defaults;
            p.set(&mut s, p.max + 1000);
            assert_eq!(p.get(&s), p.max, "{} clamps", p.name);
        }
        let mut s = defaults;
        USE_LMR.set(&mut s, 0);
        FUTILITY_BASE.set(&mut s, 120);
        assert!(!s.USE_LMR && s.FUTILITY_BASE == 120);
    }
}
