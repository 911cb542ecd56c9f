//! Static evaluation of a Sittuyin position.
//!
//! The evaluation is a sum of features times weights (all weights in `weights.rs`, laid out
//! by `layout.rs`), blended between middlegame and endgame by the material left, then
//! scaled for endgame knowledge (drawish material, the counting rule, the 50-move rule).
//! Because it is linear in the weights, a `Tracer` can record each feature's count, which
//! is what both the `eval` breakdown and the tuner use.

mod endgame;
mod layout;
pub mod nnue;
mod score;
mod trace;
mod weights;

pub use endgame::{clock_fade, rule50_scale, score_is_scaled};
use endgame::{fade, material_adjust, mop_up_side};
pub use layout::{NUM_PARAMS, TERMS, Term, term_of};
pub use score::{S, s};
pub use trace::{Breakdown, CoefTrace, NoTrace, Tracer};
pub use weights::WEIGHTS;

use crate::board::attacks;
use crate::board::attacks::pawn_attack_set;
use crate::board::sittuyin::promotable_pawns;
use crate::board::{Bitboard, Color, PieceType, Position, Square};
use layout::*;

/// The phase of a full board: knights, khons and the met count 1, rooks 2.
pub const PHASE_MAX: i32 = 18;

/// A score no static evaluation reaches (mate scores live above it).
pub const EVAL_LIMIT: i32 = 20_000;

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 1, 2, 0];

/// The game phase: PHASE_MAX with all pieces on the board or in hand, 0 with none.
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for pt in PieceType::ALL {
        let n = pos.pieces_of_type(pt).count() as i32
            + pos.hand_count(Color::White, pt) as i32
            + pos.hand_count(Color::Black, pt) as i32;
        phase += PHASE_WEIGHT[pt.index()] * n;
    }
    phase.min(PHASE_MAX)
}

/// The middlegame piece-square weight of `piece` on `sq` (a prior for move ordering).
#[inline(always)]
pub fn pst_mg(piece: crate::board::Piece, sq: Square) -> i32 {
    let rel = if piece.color() == Color::White { sq } else { sq.flip_rank() };
    WEIGHTS[PST + piece.kind().index() * 64 + rel.index()].mg
}

/// Evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS, &mut NoTrace)
}

/// The classical evaluation before the counting and 50-move clocks fade it
/// (`clock_fade`): what a transposition table may keep, since its key holds no clock.
pub fn evaluate_unclocked(pos: &Position) -> i32 {
    let (unclocked, _) = evaluate_parts(pos, &WEIGHTS, &mut NoTrace);
    unclocked
}

/// The net's evaluation, from the side to move's point of view, with the endgame knowledge
/// the classical evaluation has around it (a bare king, drawish material, the counting and
/// 50-move rules): the net sees none of the rules' clocks.
pub fn evaluate_net(pos: &Position, acc: &nnue::AccumulatorStack) -> i32 {
    net_score_with_rules(pos, acc.evaluate(pos))
}

/// `evaluate_net` before the clocks fade it (`clock_fade`).
pub fn evaluate_net_unclocked(pos: &Position, acc: &nnue::AccumulatorStack) -> i32 {
    net_score_unclocked(pos, acc.evaluate(pos), mop_up_side(pos))
}

/// Wraps a raw net score (side to move's view) in the rules' endgame knowledge.
pub fn net_score_with_rules(pos: &Position, raw: i32) -> i32 {
    let mop_up_by = mop_up_side(pos);
    fade(pos, net_score_unclocked(pos, raw, mop_up_by), mop_up_by.is_some())
}

/// A raw net score with the endgame knowledge the pieces alone decide, not the clocks';
/// `mop_up_by` is `mop_up_side(pos)`.
fn net_score_unclocked(pos: &Position, raw: i32, mop_up_by: Option<Color>) -> i32 {
    let sign = pos.side_to_move().sign();
    let white = raw.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1) * sign;
    (material_adjust(pos, white, mop_up_by) * sign).clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

/// The evaluation with its breakdown by term, for the `eval` command.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut b = Breakdown::default();
    b.total = evaluate_with(pos, &WEIGHTS, &mut b);
    b.phase = phase(pos);
    b
}

struct Eval<'a, T: Tracer> {
    pos: &'a Position,
    weights: &'a [S; NUM_PARAMS],
    tracer: &'a mut T,
    acc: [S; 2],
}

impl<T: Tracer> Eval<'_, T> {
    #[inline(always)]
    fn add(&mut self, c: Color, index: usize, count: i32) {
        if count != 0 {
            self.acc[c.index()] += self.weights[index] * count;
            self.tracer.add(index, c, count);
        }
    }
}

/// Evaluation with any weight table, reporting each feature to `tracer`.
pub fn evaluate_with<T: Tracer>(pos: &Position, weights: &[S; NUM_PARAMS], tracer: &mut T) -> i32 {
    evaluate_parts(pos, weights, tracer).1
}

/// The evaluation before and after the clocks fade it, side to move's view.
fn evaluate_parts<T: Tracer>(pos: &Position, weights: &[S; NUM_PARAMS], tracer: &mut T) -> (i32, i32) {
    let mut e = Eval { pos, weights, tracer, acc: [S::ZERO; 2] };
    let occ = pos.occupied();
    let pawn_att = [
        pawn_attack_set(Color::White, pos.pieces(Color::White, PieceType::Pawn)),
        pawn_attack_set(Color::Black, pos.pieces(Color::Black, PieceType::Pawn)),
    ];
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut minor_att = [Bitboard::EMPTY; 2];
    let mut rook_att = [Bitboard::EMPTY; 2];
    let mut zone_attackers = [0i32; 2];
    let mut danger = [0i32; 2];
    let mut att_by = [[Bitboard::EMPTY; 6]; 2];

    for c in Color::ALL {
        let them = !c;
        let ours = pos.pieces_of_color(c);
        let mobility_area = !ours & !pawn_att[them.index()];
        let their_zone = match pos.king_square(them) {
            Some(k) => attacks::king(k) | k,
            None => Bitboard::EMPTY,
        };
        let mut att = pawn_att[c.index()];
        for pt in PieceType::ALL {
            if pos.hand_count(c, pt) > 0 {
                e.add(c, HAND + pt.index(), pos.hand_count(c, pt) as i32);
            }
            for sq in pos.pieces(c, pt) {
                e.add(c, MATERIAL + pt.index(), 1);
                let rel = if c == Color::White { sq } else { sq.flip_rank() };
                e.add(c, PST + pt.index() * 64 + rel.index(), 1);
                if pt == PieceType::Pawn {
                    continue;
                }
                let a = attacks::piece(pt, c, sq, occ);
                att |= a;
                att_by[c.index()][pt.index()] |= a;
                match pt {
                    PieceType::Rook => rook_att[c.index()] |= a,
                    PieceType::Knight | PieceType::Khon | PieceType::Met => minor_att[c.index()] |= a,
                    _ => {}
                }
                let mob = (a & mobility_area).count() as usize;
                match pt {
                    PieceType::Knight => e.add(c, MOBILITY_KNIGHT + mob.min(8), 1),
                    PieceType::Khon => e.add(c, MOBILITY_KHON + mob.min(5), 1),
                    PieceType::Met => e.add(c, MOBILITY_MET + mob.min(4), 1),
                    PieceType::Rook => e.add(c, MOBILITY_ROOK + mob.min(14), 1),
                    _ => {}
                }
                let hits = (a & their_zone).count() as i32;
                if hits > 0 && pt != PieceType::King {
                    // Attacks on their king count against them.
                    e.add(them, KING_ZONE_ATTACK + pt.index(), hits);
                    zone_attackers[them.index()] += 1;
                    danger[them.index()] += ATTACK_UNITS[pt.index()];
                }
            }
        }
        let pawn_hits = (pawn_att[c.index()] & their_zone).count() as i32;
        if pawn_hits > 0 {
            e.add(them, KING_ZONE_ATTACK + PieceType::Pawn.index(), pawn_hits);
        }
        attacked[c.index()] = att;
    }

    let unmoved_pawns = Color::ALL.map(|c| (pos.pieces(c, PieceType::Pawn) & START_PAWNS[c.index()]).count() as i32);
    for c in Color::ALL {
        let them = !c;
        let ours = pos.pieces_of_color(c);
        if let Some(k) = pos.king_square(c) {
            e.add(c, KING_ATTACKERS + zone_attackers[c.index()].min(7) as usize, 1);
            let near = attacks::king(k);
            for pt in [PieceType::Pawn, PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
                e.add(c, KING_GUARD + pt.index(), (near & pos.pieces(c, pt)).count() as i32);
            }
            // King danger grows faster than linearly: one attacker is a nuisance, several
            // attackers with safe checks and undefended squares around the king are a mating
            // attack. The units are fixed; the tuner fits the weight of their square.
            let weak = near & attacked[them.index()] & !defended_by_pieces(&att_by[c.index()], pawn_att[c.index()]);
            let safe = !attacked[c.index()] & !pos.pieces_of_color(them);
            let mut units = danger[c.index()] + weak.count() as i32;
            for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
                let checks = attacks::piece(pt, c, k, occ) & att_by[them.index()][pt.index()] & safe;
                units += CHECK_UNITS[pt.index()] * checks.count().min(2) as i32;
            }
            let units = units.clamp(0, 30);
            e.add(c, KING_DANGER, units * units / 4);
            // Enemy pawns advancing on the king's files, by how near they are.
            for sq in pos.pieces(them, PieceType::Pawn) & storm_files(k) {
                let dist = sq.relative_rank(c) as i32 - k.relative_rank(c) as i32;
                if (1..=4).contains(&dist) {
                    e.add(c, KING_STORM + dist as usize - 1, 1);
                }
            }
            let front = shelter_mask(c, k);
            let shelter = (front & pos.pieces(c, PieceType::Pawn)).count().min(3) as usize;
            e.add(c, KING_SHELTER + shelter, 1);
            // A king placed on the third rank stands in front of its own pieces. The
            // penalty counts the pawns still on their starting squares: it is whole while
            // the formation stands, so dropping the king last cannot dodge it, and fades as
            // the pawns move, since later a king up the board may be where it belongs
            // (a penalty in every phase lost in a match).
            if k.relative_rank(c) >= 2 {
                e.add(c, OPENING_KING_FORWARD, unmoved_pawns[c.index()]);
            }
            let file = Bitboard::file(k.file());
            if pos.pieces(them, PieceType::Rook).any() && (file & pos.pieces(c, PieceType::Pawn)).is_empty() {
                e.add(c, KING_OPEN_FILE, 1);
            }
        }
        pawn_terms(&mut e, c);
        // An outpost: a minor piece in the enemy half, guarded by a pawn, on a square no
        // enemy pawn can ever attack, so only a piece trade removes it.
        let their_pawns = pos.pieces(them, PieceType::Pawn);
        for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met] {
            for sq in pos.pieces(c, pt) & pawn_att[c.index()] {
                let rank = sq.relative_rank(c);
                if (3..=5).contains(&rank)
                    && (their_pawns & Bitboard::adjacent_files(sq.file()) & Bitboard::ranks_ahead(c, sq)).is_empty()
                {
                    e.add(c, OUTPOST + pt.index(), 1);
                }
            }
        }
        for sq in pos.pieces(c, PieceType::Rook) {
            // A rook boxed in by its own pieces (one square to go is no freedom either),
            // weighted like the king term above: while the formation stands it takes several
            // moves to free it.
            if !(attacks::rook(sq, occ) & !ours).more_than_one() {
                e.add(c, OPENING_ROOK_SHUT, unmoved_pawns[c.index()]);
            }
            let file = Bitboard::file(sq.file());
            if (file & pos.pieces_of_type(PieceType::Pawn)).is_empty() {
                e.add(c, ROOK_OPEN_FILE, 1);
            } else if (file & pos.pieces(c, PieceType::Pawn)).is_empty() {
                e.add(c, ROOK_SEMI_OPEN_FILE, 1);
            }
        }
        for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
            let threatened = pos.pieces(c, pt) & pawn_att[them.index()];
            e.add(c, THREAT_BY_PAWN + pt.index(), threatened.count() as i32);
        }
        let hanging = ours & attacked[them.index()] & !attacked[c.index()];
        for pt in [PieceType::Pawn, PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
            let mine = pos.pieces(c, pt);
            e.add(c, HANGING + pt.index(), (hanging & mine).count() as i32);
            e.add(c, THREAT_BY_MINOR + pt.index(), (mine & minor_att[them.index()]).count() as i32);
            e.add(c, THREAT_BY_ROOK + pt.index(), (mine & rook_att[them.index()]).count() as i32);
        }
    }
    e.add(pos.side_to_move(), TEMPO, 1);

    let ph = phase(pos);
    let diff = e.acc[0] - e.acc[1];
    let raw = diff.taper(ph);
    let mop_up_by = mop_up_side(pos);
    let adjusted = material_adjust(pos, raw, mop_up_by);
    // The tuner's model follows the score before the clamp (the fade is the same from
    // either side's view).
    e.tracer.finish(ph, raw, fade(pos, adjusted, mop_up_by.is_some()));
    let sign = pos.side_to_move().sign();
    let unclocked = (adjusted * sign).clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1);
    (unclocked, fade(pos, unclocked, mop_up_by.is_some()))
}

/// King-danger units per piece attacking the squares around the king.
const ATTACK_UNITS: [i32; 6] = [0, 2, 2, 1, 3, 0];
/// King-danger units per safe check (up to two squares each) by piece type.
const CHECK_UNITS: [i32; 6] = [0, 3, 2, 1, 4, 0];

/// Squares defended by some piece other than the king (pawns included).
fn defended_by_pieces(att_by: &[Bitboard; 6], pawn_att: Bitboard) -> Bitboard {
    let mut d = pawn_att;
    for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
        d |= att_by[pt.index()];
    }
    d
}

/// The pawns' starting squares: a3-d3 and e4-h4 for White, a5-d5 and e6-h6 for Black.
const START_PAWNS: [Bitboard; 2] = [Bitboard(0x0000_0000_F00F_0000), Bitboard(0x0000_F00F_0000_0000)];

/// The king's file and its neighbours.
fn storm_files(k: Square) -> Bitboard {
    Bitboard::file(k.file()) | Bitboard::adjacent_files(k.file())
}

/// The three squares in front of a king and the three beyond them.
fn shelter_mask(c: Color, k: Square) -> Bitboard {
    let files = attacks::king(k) | k;
    let one = files.forward(c) & !Bitboard::relative_rank(c, 0);
    (one | one.forward(c)) & !Bitboard::from_square(k)
}

fn pawn_terms<T: Tracer>(e: &mut Eval<'_, T>, c: Color) {
    let pos = e.pos;
    let pawns = pos.pieces(c, PieceType::Pawn);
    if pawns.is_empty() {
        return;
    }
    let protected = pawns & pawn_attack_set(c, pawns);
    e.add(c, PAWN_PROTECTED, protected.count() as i32);
    e.add(c, PAWN_PHALANX, (pawns & pawns.sideways()).count() as i32);
    e.add(c, PAWN_BLOCKED, (pawns.forward(c) & pos.occupied()).count() as i32);
    let mut doubled = 0;
    let mut isolated = 0;
    let their_pawns = pos.pieces(!c, PieceType::Pawn);
    for sq in pawns {
        // Passed: no enemy pawn ahead on this file or the files beside it.
        let span = (Bitboard::file(sq.file()) | Bitboard::adjacent_files(sq.file())) & Bitboard::ranks_ahead(c, sq);
        if (their_pawns & span).is_empty() {
            e.add(c, PAWN_PASSED + sq.relative_rank(c) as usize, 1);
        }
        if (Bitboard::file(sq.file()) & pawns).more_than_one() {
            doubled += 1;
        }
        if (Bitboard::adjacent_files(sq.file()) & pawns).is_empty() {
            isolated += 1;
        }
    }
    e.add(c, PAWN_DOUBLED, doubled / 2);
    e.add(c, PAWN_ISOLATED, isolated);
    // The last pawn can promote wherever it stands, and while it lives no count starts.
    if !pawns.more_than_one() {
        e.add(c, LAST_PAWN, 1);
    }
    let promotable = promotable_pawns(c, pawns, pos.pieces(c, PieceType::Met), pos.rules().last_pawn_promotes_anywhere);
    e.add(c, PAWN_PROMOTABLE, promotable.count() as i32);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluation of `fen` (the endgame module's tests use it too).
    pub(super) fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        let v = eval_fen(crate::board::START_FEN);
        assert!(v.abs() <= 30, "{v}");
    }

    #[test]
    fn colour_symmetry() {
        // The same position with colours swapped and the board mirrored scores the same for
        // the side to move. The formation terms are the exception: they count pawns on
        // their starting squares, and those are no mirror images (a3-d3 and e4-h4 against
        // a5-d5 and e6-h6), so the middlegame pair keeps them silent (no king up the board,
        // no rook with fewer than two squares to go).
        let pairs = [
            ("4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 40", "4k3/p7/8/8/3p4/8/8/4K3[] b - - 0 40"),
            (
                "r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/1FR1RN1K[] b - - 1 12",
                "1fr1rn1k/3n4/pppp2ss/5p1p/PPPR4/1FN1PPPp/2S2KS1/R6N[] w - - 1 12",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval_fen(a), eval_fen(b), "{a} vs {b}");
        }
    }

    #[test]
    fn more_material_is_better() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/R3K3[] w - - 0 40") > 300);
        assert!(eval_fen("4k3/8/8/8/8/8/8/R3K3[] b - - 0 40") < -300);
    }

    #[test]
    fn lone_met_is_no_win() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/F3K3[] w - - 0 40").abs() < 30);
    }
    /// White's count minus Black's of the weight at `index`, in the position `fen`.
    fn feature(fen: &str, index: usize) -> i16 {
        let mut t = CoefTrace::default();
        evaluate_with(&Position::from_fen(fen).unwrap(), &WEIGHTS, &mut t);
        t.coefs.iter().find(|&&(i, _)| i as usize == index).map_or(0, |&(_, c)| c)
    }

    #[test]
    fn an_outpost_is_a_guarded_square_no_enemy_pawn_can_attack() {
        let knight = OUTPOST + PieceType::Knight.index();
        // Knight on e5, guarded by the d4 pawn; no black pawn on the d or f file above it.
        assert_eq!(feature("4k3/p6p/8/4N3/3P4/8/8/4K3[] w - - 0 30", knight), 1);
        // A black pawn on f7 can come to f6 and chase it.
        assert_eq!(feature("4k3/p4p1p/8/4N3/3P4/8/8/4K3[] w - - 0 30", knight), 0);
        // Unguarded, or in its own half, it is no outpost.
        assert_eq!(feature("4k3/p6p/8/4N3/8/3P4/8/4K3[] w - - 0 30", knight), 0);
        assert_eq!(feature("4k3/p6p/8/8/8/4N3/3P4/4K3[] w - - 0 30", knight), 0);
        // The same for Black, mirrored: a knight on e4 guarded by d5.
        assert_eq!(feature("4k3/8/8/3p4/4n3/8/P6P/4K3[] w - - 0 30", knight), -1);
    }

    #[test]
    fn a_passed_pawn_has_no_enemy_pawn_ahead_on_its_file_or_beside_it() {
        let rank5 = PAWN_PASSED + 4;
        // d5 is passed. The a2 and a4 pawns block each other: neither is passed (a4 would
        // cancel d5 on the same relative rank, a2 would show on its own).
        assert_eq!(feature("4k3/8/8/3P4/p7/8/P7/4K3[] w - - 0 30", rank5), 1);
        assert_eq!(feature("4k3/8/8/3P4/p7/8/P7/4K3[] w - - 0 30", PAWN_PASSED + 1), 0);
        // A black pawn on e7 stops d5 from being passed.
        assert_eq!(feature("4k3/p3p3/8/3P4/8/8/P7/4K3[] w - - 0 30", rank5), 0);
        // One behind it does not (c4, itself stopped by b2, so no black passer cancels it).
        assert_eq!(feature("4k3/p7/8/3P4/2p5/8/PP6/4K3[] w - - 0 30", rank5), 1);
    }

    #[test]
    fn trace_reproduces_the_score() {
        let pos = Position::from_fen("r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12").unwrap();
        let mut t = CoefTrace::default();
        let v = evaluate_with(&pos, &WEIGHTS, &mut t);
        assert_eq!(t.linear_score(&WEIGHTS), t.raw_white_score);
        assert_eq!(v, -t.final_white_score);
    }
}
