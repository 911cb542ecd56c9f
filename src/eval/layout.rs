//! Where each evaluation term lives in the flat weight table, so that a tuner can treat all
//! weights as one vector and the `eval` command can name every term.

/// One named block of weights.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    /// The term's name as printed by `eval` and written into weights.rs.
    pub name: &'static str,
    /// Index of its first weight.
    pub offset: usize,
    /// How many weights it has.
    pub len: usize,
}

macro_rules! layout {
    ($($name:ident : $len:expr),* $(,)?) => {
        layout!(@offsets 0usize; $($name : $len),*);
        /// Every term in table order.
        pub const TERMS: &[Term] = &[$(Term { name: stringify!($name), offset: $name, len: $len }),*];
    };
    (@offsets $at:expr; $name:ident : $len:expr $(, $rest:ident : $rlen:expr)*) => {
        #[doc = concat!("Offset of the `", stringify!($name), "` weights.")]
        pub const $name: usize = $at;
        layout!(@offsets $at + $len; $($rest : $rlen),*);
    };
    (@offsets $at:expr;) => {
        /// Number of weights in all.
        pub const NUM_PARAMS: usize = $at;
    };
}

layout! {
    MATERIAL: 6,
    HAND: 6,
    PST: 6 * 64,
    MOBILITY_KNIGHT: 9,
    MOBILITY_KHON: 6,
    MOBILITY_MET: 5,
    MOBILITY_ROOK: 15,
    KING_ZONE_ATTACK: 6,
    KING_ATTACKERS: 8,
    KING_GUARD: 6,
    KING_SHELTER: 4,
    KING_OPEN_FILE: 1,
    PAWN_PROTECTED: 1,
    PAWN_PHALANX: 1,
    PAWN_BLOCKED: 1,
    PAWN_DOUBLED: 1,
    PAWN_ISOLATED: 1,
    PAWN_PROMOTABLE: 1,
    ROOK_OPEN_FILE: 1,
    ROOK_SEMI_OPEN_FILE: 1,
    THREAT_BY_PAWN: 6,
    HANGING: 6,
    TEMPO: 1,
    LAST_PAWN: 1,
    THREAT_BY_MINOR: 6,
    THREAT_BY_ROOK: 6,
    OPENING_KING_FORWARD: 1,
    OPENING_ROOK_SHUT: 1,
    KING_DANGER: 1,
    KING_STORM: 4,
    OUTPOST: 6,
    PAWN_PASSED: 8,
}

/// The term a weight index belongs to, and the index within it.
pub fn term_of(index: usize) -> Option<(Term, usize)> {
    TERMS.iter().find(|t| index >= t.offset && index < t.offset + t.len).map(|t| (*t, index - t.offset))
}
