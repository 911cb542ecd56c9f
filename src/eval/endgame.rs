//! Endgame knowledge that no linear term expresses: sides that cannot mate, the bare-king
//! evaluation that drives a lone king to the edge, and the fade of an advantage as the
//! counting and 50-move limits approach.

use super::weights::{
    ENDGAME_UNITS, KNIGHT_MET_DIVISOR, MOP_UP_BASE, MOP_UP_CORNER, MOP_UP_EDGE, MOP_UP_FAR_RANK, MOP_UP_KINGS,
    MOP_UP_MET_CORNER, MOP_UP_PAWN, MOP_UP_PIECE, MOP_UP_UNIT, NO_MATE_DIVISOR, ROOK_VS_MINOR_DIVISOR,
};
use crate::board::sittuyin::FIFTY_MOVE_PLIES;
use crate::board::{Bitboard, Color, PieceType, Position, Square};

/// Endgame knowledge that no linear term expresses: sides that cannot mate, driving a bare
/// king to the edge, and the approach of the counting and 50-move limits.
#[cfg(test)]
fn endgame_adjust(pos: &Position, score: i32) -> i32 {
    let sign = pos.side_to_move().sign();
    clock_fade(pos, material_adjust(pos, score, mop_up_side(pos)) * sign) * sign
}

/// The bare-king evaluation's strong side, when it applies to `pos`.
#[inline]
pub(super) fn mop_up_side(pos: &Position) -> Option<Color> {
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
pub(super) fn fade(pos: &Position, score: i32, mop_up: bool) -> i32 {
    let limit = pos.counting_limit() as i32;
    // The rule set's 50-move limit (all four have 100 plies).
    let fifty = pos.rules().fifty_move_plies as i32;
    let rule50 = (pos.rule50() as i32).min(fifty);
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
    if rule50 == 0 {
        return score;
    }
    score * (2 * fifty - rule50) / (2 * fifty)
}

/// Endgame knowledge the pieces decide: sides that cannot mate and driving a bare king to
/// the edge (the clocks' part is `clock_fade`). `score` is White's view; `mop_up_by` is
/// `mop_up_side(pos)`.
pub(super) fn material_adjust(pos: &Position, score: i32, mop_up_by: Option<Color>) -> i32 {
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
    // A bare king against what cannot force mate (a lone khon, two knights, mets and
    // pawns): the rules let the game go on, but it ends in the count or the 50-move rule.
    if pos.is_bare(!strong) && !pos.in_setup() && !can_force_mate(pos, strong) {
        score /= NO_MATE_DIVISOR;
    }
    // A lone rook against a lone knight or khon, with no pawns, is a draw with the
    // defender's king beside its piece (fairy-stockfish scores it +0.16 and +0.39); against a
    // met the rook wins. Without this the rook's material alone scored +3.6 to +4. So is a
    // rook against a khon or knight and a met, with pawns that cannot promote beside them:
    // Sitke scored it +2.4 to +4.3 and drew all 11 such games against fairy-stockfish,
    // which scored them +0.0 to +0.35 for the rook.
    if lone_rook_against_a_minor(pos) {
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
        || lone_rook_against_a_minor(pos)
        || Color::ALL.into_iter().any(|c| (pos.is_bare(c) && !pos.in_setup()) || pos.has_insufficient_material(c))
}

/// The score of `strong` against a bare king on `wk`: its material, then the weak king
/// driven to an edge and a corner, the strong king at a knight's distance from it, and every
/// piece close, since khons, mets and knights mate only next to the king. Knight and met
/// alone get no material, only the way to a corner of the met's colour. Dead pawns
/// (`dead_pawns`) count for nothing.
fn mop_up(pos: &Position, strong: Color, wk: Square, sk: Square) -> i32 {
    let men = pos.pieces_of_color(strong) - pos.pieces(strong, PieceType::King) - dead_pawns(pos, strong);
    let kings_and_pieces = |v: i32| {
        let kd = king_distance(wk, sk);
        let mut v = v + MOP_UP_KINGS * (7 - kd) + if kd == 2 { MOP_UP_KINGS } else { 0 };
        for sq in men {
            v += MOP_UP_PIECE * (7 - king_distance(wk, sq));
        }
        v
    };
    let mets = pos.pieces(strong, PieceType::Met);
    if men.count() == 2 && pos.pieces(strong, PieceType::Knight).any() && mets.any() {
        // Knight and met mate only beside a corner the met can reach, and only once the weak
        // king has been penned there: a draw in all but 2% of the positions (the 4-man
        // tables). So no base and no material, just the way to that corner (a corner of the
        // other colour is no mate, however deep the search), scaled down as material that
        // cannot force mate is: undivided it scored +3.2 for all the 100 plies of the 7 such
        // games drawn by the 50-move rule against fairy-stockfish, which scored them +0.5.
        let d = met_corner_distance(wk, mets.lsb().is_dark());
        let v = kings_and_pieces(MOP_UP_EDGE * (6 + center_distance(wk)) + MOP_UP_MET_CORNER * (7 - d));
        return v / KNIGHT_MET_DIVISOR;
    }
    let mut v = MOP_UP_BASE;
    for pt in [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook] {
        v += MOP_UP_UNIT * ENDGAME_UNITS[pt.index()] * pos.pieces(strong, pt).count() as i32;
    }
    v += MOP_UP_PAWN * (men & pos.pieces(strong, PieceType::Pawn)).count() as i32;
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

/// `c`'s pawns that can never move again: on its last rank while it has a met, so that they
/// may not promote either (a bare king never has to take the met). They neither mate nor
/// help to.
fn dead_pawns(pos: &Position, c: Color) -> Bitboard {
    if pos.pieces(c, PieceType::Met).is_empty() {
        return Bitboard::EMPTY;
    }
    pos.pieces(c, PieceType::Pawn) & Bitboard::relative_rank(c, 7)
}

/// Whether one side has only a rook and the other a knight or a khon, at most a met, and
/// pawns only beside the met (a pawn promotes only while its side has none, so they cannot
/// promote while it stands).
fn lone_rook_against_a_minor(pos: &Position) -> bool {
    if pos.hand_total(Color::White) + pos.hand_total(Color::Black) > 0 {
        return false;
    }
    let lone_rook = |c: Color| pos.pieces_of_color(c).count() == 2 && pos.pieces(c, PieceType::Rook).count() == 1;
    let minor_side = |c: Color| {
        let minors = (pos.pieces(c, PieceType::Knight) | pos.pieces(c, PieceType::Khon)).count();
        let mets = pos.pieces(c, PieceType::Met).count();
        let pawns = pos.pieces(c, PieceType::Pawn).count();
        minors == 1 && mets <= 1 && (pawns == 0 || mets == 1) && pos.pieces(c, PieceType::Rook).is_empty()
    };
    Color::ALL.into_iter().any(|c| lone_rook(c) && minor_side(!c))
}

/// Manhattan distance to the nearer corner of the given colour (a1 and h8 are dark).
fn met_corner_distance(sq: Square, dark: bool) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    if dark { (f + r).min(14 - f - r) } else { (7 - f + r).min(7 + f - r) }
}

/// Whether `c` can force mate on a bare king. One khon cannot, nor can knights alone (two of
/// them), nor mets and pawns however many: a pawn promotes only to a met, and only while its
/// side has none, so they never make more than one met and pawns that help it (the tables:
/// a met and a pawn win 0.01% of their positions, two pawns as few; a met and two pawns
/// scored +7 to +10 drew both their games in the conversion suite). The rules'
/// insufficient-material test lets such games go on.
fn can_force_mate(pos: &Position, c: Color) -> bool {
    if pos.pieces(c, PieceType::Rook).any() {
        return true;
    }
    let n = pos.pieces(c, PieceType::Knight).count();
    let k = pos.pieces(c, PieceType::Khon).count();
    let mets_and_pawns = (pos.pieces(c, PieceType::Met) | pos.pieces(c, PieceType::Pawn)).count();
    k >= 2 || (k == 1 && (n >= 1 || mets_and_pawns >= 1)) || (n >= 1 && mets_and_pawns >= 1)
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
    use crate::eval::tests::eval_fen;
    use crate::eval::{evaluate, evaluate_unclocked};

    #[test]
    fn only_mating_material_gets_the_bare_king_evaluation() {
        let can = |fen: &str| can_force_mate(&Position::from_fen(fen).unwrap(), Color::White);
        // A lone khon, two knights, or mets and pawns however many (a pawn becomes a met
        // only while its side has none), a pawn on its last rank included, cannot force mate.
        for fen in [
            "8/8/8/3k4/8/8/3SK3/8[] w - 88 0 80",
            "8/8/8/3k4/8/8/3NK3/3N4[] w - 64 0 80",
            "8/8/8/3k4/8/2P1P3/4K3/8[] w - - 0 80",
            "8/8/8/3k4/8/2P5/4K3/5F2[] w - - 0 80",
            "8/8/8/3k4/8/1PP1P3/4K3/8[] w - - 0 80",
            "2PP4/8/8/8/2K5/2F5/8/1k6[] w - - 39 215",
            "4P3/8/8/8/F7/8/k7/2K5[] w - - 39 163",
        ] {
            assert!(!can(fen), "{fen}");
        }
        for fen in [
            "8/8/8/3k4/8/8/3SK3/3F4[] w - 88 0 80",
            "8/8/8/3k4/8/8/3NK3/3F4[] w - 128 0 80",
            "8/8/8/3k4/8/8/4K3/R7[] w - 32 0 80",
            "8/8/8/3k4/8/2P5/4K3/5S2[] w - - 0 80",
            "4P3/8/8/8/F7/N7/k7/2K5[] w - - 39 163",
        ] {
            assert!(can(fen), "{fen}");
        }
    }

    #[test]
    fn a_pawn_that_can_never_move_again_is_worth_nothing_against_a_bare_king() {
        // Black's pawn on e1 stands on its last rank, and while the met lives it may not
        // promote: the knight and the met are on their own, mostly a draw (the suite's game
        // from here was drawn; the pawn once made it +12). Off the last rank it still counts.
        let dead = eval_fen("2k5/K7/n7/f7/8/8/8/4p3[] b - - 39 163");
        let without = eval_fen("2k5/K7/n7/f7/8/8/8/8[] b - 128 0 163");
        assert_eq!(dead, without);
        assert!(dead < 500, "{dead}");
        assert!(eval_fen("2k5/K7/n7/f7/8/8/4p3/8[] b - - 39 163") > dead + 300);
        // Mets and pawns alone keep an eighth of their score (they made +7 to +10).
        for fen in ["2PP4/8/8/8/2K5/2F5/8/1k6[] w - - 39 215", "8/8/8/8/8/5pk1/4p3/4f1K1[] b - - 39 122"] {
            let v = eval_fen(fen);
            assert!((1..100).contains(&v), "{fen}: {v}");
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
        assert!(met_corner > wrong_corner + 10, "{met_corner} {wrong_corner}");
        let central = eval_fen("8/8/8/3k4/8/2F5/4K3/4N3[] w - 128 10 86");
        let khon = eval_fen("8/8/8/3k4/8/2F5/4K3/4S3[] w - 88 10 86");
        assert!(central < 100 && khon > central + 400, "{central} {khon}");
        // Mostly a draw, so never scored as a win, even with the weak king in the corner
        // (a game's position, where the undivided gradient scored +3.2 to the 50-move draw).
        for v in [met_corner, eval_fen("kN6/2K5/8/F7/8/8/8/8[] b - 128 0 167")] {
            assert!(v.abs() < 100, "{v}");
        }
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

    #[test]
    fn a_lone_rook_does_not_beat_a_minor_and_a_met() {
        // Positions where such endings began in games against fairy-stockfish, all drawn by
        // the 50-move rule (Sitke with the rook scored them +2.4 to +4.3): khon and met, with
        // pawns that cannot promote while the met stands, for either colour and either side
        // to move; and knight and met (fairy-stockfish: +0.06 at depth 20).
        for fen in [
            "5K1k/8/5sf1/8/2R5/8/8/8[] w - - 0 102",
            "8/2r5/5S2/8/4k2F/8/3K4/8[] b - - 0 74",
            "4k3/2R5/3K4/8/8/1p3f2/2s5/8[] w - - 0 77",
            "5P2/6F1/6KP/4k1S1/6r1/8/8/8[] b - - 0 167",
            "8/8/8/3k4/2nf4/8/4K3/R7[] w - - 0 60",
        ] {
            let v = eval_fen(fen);
            assert!(v.abs() < 100, "{fen}: {v}");
        }
        // Without the met a pawn may promote, and a pawn or a second piece beside the rook
        // is more than a lone rook: the ordinary score.
        for fen in [
            "4k3/2R5/3K4/8/8/1p6/2s5/8[] w - - 0 77",
            "4k3/2R5/3K4/8/8/1P3f2/2s5/8[] w - - 0 77",
            "4k3/2R5/3K4/8/4N3/5f2/2s5/8[] w - - 0 77",
        ] {
            assert!(eval_fen(fen) > 150, "{fen}");
        }
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
}
