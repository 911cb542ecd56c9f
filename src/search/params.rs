//! Every tunable search constant, named, with its range. Values are atomics so that a
//! tuner (SPSA, through `setoption`) can change them without rebuilding; reading one costs
//! a plain load.

use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant.
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
    value: AtomicI32,
}

impl Param {
    const fn new(name: &'static str, default: i32, min: i32, max: i32, doc: &'static str) -> Param {
        let tunable = !(min == 0 && max == 1);
        Param { name, tunable, default, min, max, doc, value: AtomicI32::new(default) }
    }

    /// For a feature switch: whether the feature is on.
    #[inline(always)]
    pub fn on(&self) -> bool {
        self.get() != 0
    }

    /// The current value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Sets the value, clamped to the range.
    pub fn set(&self, v: i32) {
        self.value.store(v.clamp(self.min, self.max), Ordering::Relaxed);
    }
}

macro_rules! params {
    ($($name:ident = $default:expr, $min:expr, $max:expr; $doc:literal)*) => {
        $(#[doc = $doc] pub static $name: Param = Param::new(stringify!($name), $default, $min, $max, $doc);)*
        /// Every tunable constant.
        pub static ALL: &[&Param] = &[$(&$name),*];
    };
}

params! {
    USE_RAZORING = 0, 0, 1; "Feature switch: razoring (off: it lost in an ablation match)."
    USE_RFP = 1, 0, 1; "Feature switch: reverse futility pruning."
    USE_NMP = 0, 0, 1; "Feature switch: null move pruning (off: it lost its ablation matches)."
    USE_FUTILITY = 1, 0, 1; "Feature switch: futility pruning of quiet moves."
    USE_LMP = 1, 0, 1; "Feature switch: late move pruning."
    USE_SEE_PRUNING = 1, 0, 1; "Feature switch: SEE pruning of quiet moves and captures."
    USE_LMR = 1, 0, 1; "Feature switch: late move reductions."
    USE_IIR = 1, 0, 1; "Feature switch: internal iterative reduction."
    USE_CHECK_EXT = 1, 0, 1; "Feature switch: check extension."
    USE_SINGULAR = 1, 0, 1; "Feature switch: singular extension (and multi-cut)."
    USE_QS_CHECKS = 1, 0, 1; "Feature switch: quiet checks at the first ply of quiescence search."
    ASPIRATION_WINDOW = 25, 5, 100; "Half-width of the first aspiration window, centipawns."
    RFP_MAX_DEPTH = 8, 2, 12; "Reverse futility pruning: deepest depth it applies at."
    RFP_MARGIN = 80, 20, 200; "Reverse futility pruning: margin per ply of depth."
    NMP_MIN_DEPTH = 3, 1, 6; "Null move pruning: shallowest depth."
    NMP_BASE = 3, 1, 6; "Null move pruning: base reduction."
    NMP_DEPTH_DIV = 4, 2, 8; "Null move pruning: one more ply of reduction per this much depth."
    NMP_EVAL_DIV = 200, 50, 600; "Null move pruning: one more ply per this much eval above beta."
    RAZOR_MARGIN = 350, 100, 800; "Razoring: drop to quiescence when eval is this far below alpha, per ply."
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
}
