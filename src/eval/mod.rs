//! Static evaluation of a Sittuyin position.
//!
//! The evaluation is a sum of features times weights (all weights in `weights.rs`, laid out
//! by `layout.rs`), blended between middlegame and endgame by the material left, then
//! scaled for endgame knowledge (drawish material, the counting rule, the 50-move rule).
//! Because it is linear in the weights, a `Tracer` can record each feature's count, which
//! is what both the `eval` breakdown and the tuner use.

mod layout;
pub mod nnue;
mod score;
mod trace;
mod weights;

pub use layout::{NUM_PARAMS, TERMS, Term, term_of};
pub use score::{S, s};
pub use trace::{Breakdown, CoefTrace, NoTrace, Tracer};
pub use weights::WEIGHTS;
use weights::{
    ENDGAME_UNITS, MOP_UP_BASE, MOP_UP_CORNER, MOP_UP_EDGE, MOP_UP_FAR_RANK, MOP_UP_KINGS, MOP_UP_MET_CORNER,
    MOP_UP_PAWN, MOP_UP_PIECE, MOP_UP_UNIT, NO_MATE_DIVISOR, ROOK_VS_MINOR_DIVISOR,
};

use crate::board::attacks;
use crate::board::position::pawn_attack_set;
use crate::board::sittuyin::{FIFTY_MOVE_PLIES, promotable_pawns};
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
    let promotable = promotable_pawns(c, pawns, pos.pieces(c, PieceType::Met));
    e.add(c, PAWN_PROMOTABLE, promotable.count() as i32);
}

/// Endgame knowledge that no linear term expresses: sides that cannot mate, driving a bare
/// king to the edge, and the approach of the counting and 50-move limits.
#[cfg(test)]
fn endgame_adjust(pos: &Position, score: i32) -> i32 {
    let sign = pos.side_to_move().sign();
    clock_fade(pos, material_adjust(pos, score, mop_up_side(pos)) * sign) * sign
}

/// The bare-king evaluation's strong side, when it applies to `pos`.
#[inline]
fn mop_up_side(pos: &Position) -> Option<Color> {
    Color::ALL.into_iter().map(|weak| (weak, !weak)).find_map(|(weak, strong)| {
        (pos.is_bare(weak)
            && !pos.in_setup()
            && !pos.has_insufficient_material(strong)
            && can_force_mate(pos, strong)
            && pos.king_square(weak).is_some()
            && pos.king_square(strong).is_some())
        .then_some(strong)
    })
}

/// Fades `score` (either side's view) as the counting and 50-move limits approach. The
/// bare-king evaluation does not fade: the winning side keeps a gradient to follow until
/// the count ends. Kept apart from the rest of the evaluation so that the search can store
/// an evaluation without it and fade it by the clocks of the node that reads it back: a
/// position's key holds no clock, and one evaluation faded by an earlier, lower clock would
/// hide the fade that makes a clock-resetting move worth playing.
#[inline]
pub fn clock_fade(pos: &Position, score: i32) -> i32 {
    fade(pos, score, mop_up_side(pos).is_some())
}

/// `clock_fade` where the caller knows whether the bare-king evaluation applies (`mop_up`),
/// so that one evaluation asks once.
#[inline]
fn fade(pos: &Position, score: i32, mop_up: bool) -> i32 {
    let limit = pos.counting_limit() as i32;
    let rule50 = pos.rule50().min(FIFTY_MOVE_PLIES) as i32;
    if (limit == 0 && rule50 == 0) || score == 0 || mop_up {
        return score;
    }
    let mut score = score;
    // The counting rule: the advantage fades as the count runs out; so it does as the
    // 50-move rule nears.
    if limit > 0 {
        let left = (limit - pos.counting_ply() as i32).max(0);
        score = score * (left + 8) / (limit + 8);
    }
    score * (RULE50_SPAN - rule50) / RULE50_SPAN
}

/// Endgame knowledge the pieces decide: sides that cannot mate and driving a bare king to
/// the edge (the clocks' part is `clock_fade`). `score` is White's view; `mop_up_by` is
/// `mop_up_side(pos)`.
fn material_adjust(pos: &Position, score: i32, mop_up_by: Option<Color>) -> i32 {
    // A bare king against mating material: the general terms (piece squares, mobility,
    // king safety) only blur the way to the mate, so the score is the material plus a
    // clean gradient, as classical engines evaluate such endings. It replaces the score
    // before any scaling, and `clock_fade` leaves it alone.
    if let Some(strong) = mop_up_by
        && let (Some(wk), Some(sk)) = (pos.king_square(!strong), pos.king_square(strong))
    {
        return strong.sign() * mop_up(pos, strong, wk, sk);
    }
    let mut score = score;
    let strong = if score > 0 { Color::White } else { Color::Black };
    if score != 0 && pos.has_insufficient_material(strong) {
        score /= 16;
    }
    // A bare king against what cannot force mate (a lone khon, two knights, a met and a
    // pawn): the rules let the game go on, but it ends in the count or the 50-move rule.
    if pos.is_bare(!strong) && !pos.in_setup() && !can_force_mate(pos, strong) {
        score /= NO_MATE_DIVISOR;
    }
    // A lone rook against a lone knight or khon, with no pawns, is a draw with the
    // defender's king beside its piece (fairy-stockfish scores it +0.16 and +0.39); against a
    // met the rook wins. Without this the rook's material alone scored +3.6 to +4.
    if rook_against_knight_or_khon(pos) {
        score /= ROOK_VS_MINOR_DIVISOR;
    }
    score
}

/// The 50-move rule shrinks a score by `rule50 / RULE50_SPAN`: half of it at the rule's
/// 100 plies.
const RULE50_SPAN: i32 = 2 * FIFTY_MOVE_PLIES as i32;

/// The factor by which the 50-move rule scales the evaluation at halfmove clock `rule50`:
/// from 1 at 0 plies down to 1/2 at 100. It depends on the clock alone, so a trainer that
/// stores the clock can divide it out of a score.
pub fn rule50_scale(rule50: u32) -> f64 {
    (RULE50_SPAN - rule50.min(FIFTY_MOVE_PLIES) as i32) as f64 / RULE50_SPAN as f64
}

/// Whether the endgame adjustment changes the score of `pos` by a rule that the pieces
/// alone do not show: the bare-king evaluation, insufficient material, a bare king facing
/// what cannot force mate, a lone rook against a lone knight or khon, and the counting rule.
/// For any other position the adjustment is the 50-move factor alone (`rule50_scale`).
/// It holds whatever the sign of the score, so one side's insufficient material counts
/// even where the score favours the other side; such positions are rare and near the end.
pub fn score_is_scaled(pos: &Position) -> bool {
    pos.counting_limit() > 0
        || rook_against_knight_or_khon(pos)
        || Color::ALL.into_iter().any(|c| (pos.is_bare(c) && !pos.in_setup()) || pos.has_insufficient_material(c))
}

/// The score of `strong` against a bare king on `wk`: its material, then the weak king
/// driven to an edge and a corner, the strong king at a knight's distance from it, and every
/// piece close, since khons, mets and knights mate only next to the king. Knight and met
/// alone get no material, only the way to a corner of the met's colour.
fn mop_up(pos: &Position, strong: Color, wk: Square, sk: Square) -> i32 {
    let kings_and_pieces = |v: i32| {
        let kd = king_distance(wk, sk);
        let mut v = v + MOP_UP_KINGS * (7 - kd) + if kd == 2 { MOP_UP_KINGS } else { 0 };
        for sq in pos.pieces_of_color(strong) - pos.pieces(strong, PieceType::King) {
            v += MOP_UP_PIECE * (7 - king_distance(wk, sq));
        }
        v
    };
    let mets = pos.pieces(strong, PieceType::Met);
    if pos.pieces_of_color(strong).count() == 3 && pos.pieces(strong, PieceType::Knight).any() && mets.any() {
        // Knight and met mate only beside a corner the met can reach, and only once the weak
        // king has been penned there: mostly a draw (fairy-stockfish scores it +2.6). So no
        // base and no material, just the way to that corner (a corner of the other colour
        // is no mate, however deep the search).
        let d = met_corner_distance(wk, mets.lsb().is_dark());
        return kings_and_pieces(MOP_UP_EDGE * (6 + center_distance(wk)) + MOP_UP_MET_CORNER * (7 - d));
    }
    let mut v = MOP_UP_BASE;
    for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
        v += MOP_UP_UNIT * ENDGAME_UNITS[pt.index()] * pos.pieces(strong, pt).count() as i32;
    }
    v += MOP_UP_PAWN * pos.pieces(strong, PieceType::Pawn).count() as i32;
    if pos.pieces(strong, PieceType::Rook).is_empty() && pos.pieces(strong, PieceType::Khon).any() {
        // A khon steps forward and only diagonally back: the net closes on the far rank,
        // best in a corner there (from the near rank even deep searches find no mate).
        let f = wk.file() as i32;
        v += MOP_UP_FAR_RANK * wk.relative_rank(strong) as i32;
        v += MOP_UP_CORNER * ((f - 3).max(4 - f) - 1);
    } else {
        v += MOP_UP_EDGE * (6 + center_distance(wk));
        v += MOP_UP_CORNER * (7 - corner_distance(wk)).max(0);
    }
    kings_and_pieces(v)
}

/// Whether one side has only a rook and the other only a knight or a khon, and no pawns.
fn rook_against_knight_or_khon(pos: &Position) -> bool {
    if pos.occupied().count() != 4 || pos.hand_total(Color::White) + pos.hand_total(Color::Black) > 0 {
        return false;
    }
    let rooks = pos.pieces_of_type(PieceType::Rook);
    let minors = pos.pieces_of_type(PieceType::Knight) | pos.pieces_of_type(PieceType::Khon);
    rooks.count() == 1 && minors.count() == 1 && (pos.pieces_of_color(Color::White) & (rooks | minors)).count() == 1
}

/// Manhattan distance to the nearer corner of the given colour (a1 and h8 are dark).
fn met_corner_distance(sq: Square, dark: bool) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    if dark { (f + r).min(14 - f - r) } else { (7 - f + r).min(7 + f - r) }
}

/// Whether `c` can force mate on a bare king. One khon cannot, nor can knights alone (two of
/// them), nor two mets or pawns: a pawn promotes only to a met, and only while its side has
/// none. (Three or more may mate with the king's help; they are left to the search.) The
/// rules' insufficient-material test lets such games go on.
fn can_force_mate(pos: &Position, c: Color) -> bool {
    if pos.pieces(c, PieceType::Rook).any() {
        return true;
    }
    let n = pos.pieces(c, PieceType::Knight).count();
    let k = pos.pieces(c, PieceType::Khon).count();
    let mets_and_pawns = (pos.pieces(c, PieceType::Met) | pos.pieces(c, PieceType::Pawn)).count();
    k >= 2 || (k == 1 && (n >= 1 || mets_and_pawns >= 1)) || (n >= 1 && mets_and_pawns >= 1) || mets_and_pawns >= 3
}

/// Manhattan distance to the nearest corner (0 in a corner, 6 in the centre).
fn corner_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f) + r.min(7 - r)
}

fn center_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    (f - 3).max(4 - f) + (r - 3).max(4 - r) - 8
}

fn king_distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs().max((a.rank() as i32 - b.rank() as i32).abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
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

    #[test]
    fn only_mating_material_gets_the_bare_king_evaluation() {
        let can = |fen: &str| can_force_mate(&Position::from_fen(fen).unwrap(), Color::White);
        // A lone khon, two knights, two mets or pawns (a pawn becomes a met only while its
        // side has none) cannot force mate.
        for fen in [
            "8/8/8/3k4/8/8/3SK3/8[] w - 88 0 80",
            "8/8/8/3k4/8/8/3NK3/3N4[] w - 64 0 80",
            "8/8/8/3k4/8/2P1P3/4K3/8[] w - - 0 80",
            "8/8/8/3k4/8/2P5/4K3/5F2[] w - - 0 80",
        ] {
            assert!(!can(fen), "{fen}");
        }
        for fen in [
            "8/8/8/3k4/8/8/3SK3/3F4[] w - 88 0 80",
            "8/8/8/3k4/8/8/3NK3/3F4[] w - 128 0 80",
            "8/8/8/3k4/8/8/4K3/R7[] w - 32 0 80",
            "8/8/8/3k4/8/2P5/4K3/5S2[] w - - 0 80",
            "8/8/8/3k4/8/1PP1P3/4K3/8[] w - - 0 80",
        ] {
            assert!(can(fen), "{fen}");
        }
    }

    #[test]
    fn a_khon_drives_the_bare_king_up_the_board() {
        // The khon steps forward: the same net scores higher on the far rank than on the
        // near one (from the near rank even a deep search finds no mate in these endings).
        let far = eval_fen("k7/8/1K6/2S5/2F5/8/8/8[] w - 88 10 86");
        let near = eval_fen("8/8/8/2F5/2S5/1K6/8/k7[] w - 88 10 86");
        assert!(far > near + 100, "far {far}, near {near}");
        // For Black the far rank is the first.
        let black_far = eval_fen("8/8/8/2f5/2s5/1k6/8/K7[] b - 88 10 86");
        assert_eq!(black_far, far);
    }

    #[test]
    fn bare_king_is_driven_to_a_corner_with_every_piece_close() {
        // Knight and khon against a bare king: cornered beats central beats far away.
        let cornered = eval_fen("k7/2K5/3N4/2S5/8/8/8/8[] w - - 0 40");
        let central = eval_fen("8/8/1K6/3k4/8/1N6/2S5/8[] w - - 0 40");
        let scattered = eval_fen("8/8/8/3k4/8/8/8/K5NS[] w - - 0 40");
        assert!(cornered > central + 100 && central > scattered, "{cornered} {central} {scattered}");
        // The gradient survives a count that is nearly run out.
        let late_corner = eval_fen("k7/2K5/3N4/2S5/8/8/8/8[] w - 128 120 60");
        let late_center = eval_fen("8/8/1K6/3k4/8/1N6/2S5/8[] w - 128 120 60");
        assert!(late_corner > late_center + 100, "{late_corner} {late_center}");
    }

    #[test]
    fn knight_and_met_are_worth_little_away_from_the_met_corner() {
        // Knight and met mate only beside a corner the met can reach (h1 for a light met):
        // the weak king penned there scores far more than in a dark corner, and knight and
        // met score far less than khon and met, which mate anywhere on the far rank.
        let met_corner = eval_fen("8/8/8/8/4N3/5F2/5K2/7k[] w - 128 10 86");
        let wrong_corner = eval_fen("8/8/8/8/3N4/3F4/2K5/k7[] w - 128 10 86");
        assert!(met_corner > wrong_corner + 100, "{met_corner} {wrong_corner}");
        let central = eval_fen("8/8/8/3k4/8/2F5/4K3/4N3[] w - 128 10 86");
        let khon = eval_fen("8/8/8/3k4/8/2F5/4K3/4S3[] w - 88 10 86");
        assert!(central < 400 && khon > central + 400, "{central} {khon}");
        // For the defender the same score, negated: it keeps away from the met's corners.
        assert_eq!(eval_fen("8/8/8/3k4/8/2F5/4K3/4N3[] b - 128 10 86"), -central);
    }

    #[test]
    fn material_that_cannot_mate_a_bare_king_is_no_win() {
        // A lone khon, two knights, a met and a pawn: the count or the 50-move rule ends it.
        for fen in [
            "8/8/8/3k4/8/8/3SK3/8[] w - 88 0 80",
            "8/8/8/3k4/8/8/3NK3/3N4[] w - 128 0 80",
            "8/8/8/3k4/8/2P5/4K3/5F2[] w - - 0 80",
        ] {
            let v = eval_fen(fen);
            assert!((0..100).contains(&v), "{fen}: {v}");
        }
    }

    #[test]
    fn a_lone_rook_does_not_beat_a_lone_knight_or_khon() {
        for fen in ["8/8/8/3k4/2s5/8/4K3/R7[] w - - 0 60", "8/8/8/3k4/2n5/8/4K3/R7[] w - - 0 60"] {
            let v = eval_fen(fen);
            assert!((0..100).contains(&v), "{fen}: {v}");
        }
        // A met falls to the rook; a pawn anywhere keeps the ordinary score.
        assert!(eval_fen("8/8/8/3k4/2f5/8/4K3/R7[] w - - 0 60") > 250);
        assert!(eval_fen("8/8/8/3k4/2s5/8/P3K3/R7[] w - - 0 60") > 250);
    }

    /// Calls `visit` after every ply of `games` random games of up to 400 plies (seed
    /// `seed`), which shed material fast, so bare kings and counts come up.
    fn along_random_games(seed: u64, games: usize, mut visit: impl FnMut(&Position)) {
        let mut rng = crate::rng::Rng::new(seed);
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_over() {
                    break;
                }
                pos.do_move(*rng.pick(moves.as_slice()));
                visit(&pos);
            }
        }
    }

    #[test]
    fn score_is_scaled_names_every_rule_but_the_50_move_factor() {
        // Along random games (which shed material fast, so bare kings and counts come up),
        // a position is flagged exactly when the adjustment does more than the 50-move
        // factor to some score.
        let probes = [-2500, -700, -120, -7, 7, 120, 700, 2500];
        let fifty =
            |pos: &Position, x: i32| x * (RULE50_SPAN - pos.rule50().min(FIFTY_MOVE_PLIES) as i32) / RULE50_SPAN;
        let (mut flagged, mut plain, mut counting) = (0, 0, 0);
        along_random_games(7, 200, |pos| {
            let differs = probes.iter().any(|&x| endgame_adjust(pos, x) != fifty(pos, x));
            assert_eq!(score_is_scaled(pos), differs, "{}", pos.fen());
            flagged += differs as u32;
            plain += !differs as u32;
            counting += (pos.counting_limit() > 0) as u32;
        });
        assert!(flagged > 500 && plain > 5000 && counting > 100, "{flagged} {plain} {counting}");
        assert!(!score_is_scaled(&Position::startpos()));
        assert!(score_is_scaled(&Position::from_fen("8/8/8/3k4/2s5/8/4K3/R7[] w - - 0 60").unwrap()));
        assert_eq!(rule50_scale(0), 1.0);
        assert_eq!(rule50_scale(60), 0.7);
        assert_eq!(rule50_scale(150), 0.5);
    }

    #[test]
    fn the_clocks_fade_an_unclocked_evaluation_to_the_evaluation() {
        // Along random games: what the search keeps in its table, faded by the reader's
        // clocks, is the evaluation, whatever the material (bare kings, counts) or clocks.
        let (mut faded, mut counting) = (0, 0);
        along_random_games(11, 100, |pos| {
            let unclocked = evaluate_unclocked(pos);
            assert_eq!(clock_fade(pos, unclocked), evaluate(pos), "{}", pos.fen());
            faded += (clock_fade(pos, unclocked) != unclocked) as u32;
            counting += (pos.counting_limit() > 0) as u32;
        });
        assert!(faded > 1000 && counting > 50, "{faded} {counting}");
        // The same position read at a later clock: the 50-move fade is the reader's.
        let early = Position::from_fen("4k3/p6p/8/4N3/3P4/8/8/R3K3[] w - - 0 30").unwrap();
        let late = Position::from_fen("4k3/p6p/8/4N3/3P4/8/8/R3K3[] w - - 60 30").unwrap();
        let v = evaluate_unclocked(&early);
        assert_eq!(evaluate_unclocked(&late), v);
        assert!(v > 300);
        assert_eq!(clock_fade(&early, v), v);
        assert_eq!(clock_fade(&late, v), v * 140 / 200);
        // The bare-king evaluation keeps its gradient to the end of the count.
        let bare = Position::from_fen("8/8/8/3k4/8/8/4K3/R7[] w - - 40 60").unwrap();
        let b = evaluate_unclocked(&bare);
        assert!(b > 300);
        assert_eq!(clock_fade(&bare, b), b);
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
