//! Material signatures: which men stand on the board, named like `KRNvK`, with one
//! canonical colour orientation per ending (the stronger side plays White).

use crate::board::{Color, Piece, PieceType, Position};
use std::fmt;

/// The non-king piece types from strongest to weakest: the order of names and slots.
pub const STRENGTH_ORDER: [PieceType; 5] =
    [PieceType::Rook, PieceType::Khon, PieceType::Knight, PieceType::Met, PieceType::Pawn];

/// The men of an ending besides the two kings: how many of each type per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Material {
    /// Counts by colour, then by `PieceType::index` (the king's entry stays 0).
    pub counts: [[u8; 6]; 2],
}

impl Material {
    /// The material of a list of men (kings are skipped).
    pub fn from_pieces(pieces: impl IntoIterator<Item = Piece>) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for p in pieces {
            if p.kind() != PieceType::King {
                counts[p.color().index()][p.kind().index()] += 1;
            }
        }
        Material { counts }
    }

    /// The material on a position's board (hands are not looked at).
    pub fn of_position(pos: &Position) -> Material {
        Material::from_pieces(pos.occupied().filter_map(|sq| pos.piece_on(sq)))
    }

    /// Non-king men of colour `c`.
    pub fn side_count(&self, c: Color) -> u32 {
        self.counts[c.index()].iter().map(|&n| n as u32).sum()
    }

    /// All men on the board, kings included.
    pub fn men(&self) -> usize {
        2 + (self.side_count(Color::White) + self.side_count(Color::Black)) as usize
    }

    /// How many `pt` both sides have together.
    pub fn count_type(&self, pt: PieceType) -> u32 {
        self.counts[0][pt.index()] as u32 + self.counts[1][pt.index()] as u32
    }

    /// The same ending with the colours exchanged.
    pub fn flipped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// One side's men as strength ranks, strongest first; compared to pick the orientation.
    fn side_key(&self, c: Color) -> (u32, [u8; 4]) {
        let mut key = [0u8; 4];
        let mut i = 0;
        for (rank, pt) in STRENGTH_ORDER.iter().enumerate() {
            for _ in 0..self.counts[c.index()][pt.index()] {
                if i < 4 {
                    key[i] = 5 - rank as u8;
                    i += 1;
                }
            }
        }
        (self.side_count(c), key)
    }

    /// Whether White is the side the tables store as White: the one with more men, or
    /// with stronger ones (ties, like KPvKP, are their own mirror image).
    pub fn is_canonical(&self) -> bool {
        self.side_key(Color::White) >= self.side_key(Color::Black)
    }

    /// The canonical orientation, and whether the colours had to be exchanged to get it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() { (*self, false) } else { (self.flipped(), true) }
    }

    /// Whether one side has a bare king and no pawn is on the board: a counting ending
    /// (or a met ending without a count), valued by distance to mate.
    pub fn is_bare_king_ending(&self) -> bool {
        self.count_type(PieceType::Pawn) == 0
            && (self.side_count(Color::White) == 0 || self.side_count(Color::Black) == 0)
    }

    /// The name: `K`, the white men strongest first, `vK`, the black men (`KRNvK`).
    pub fn name(&self) -> String {
        let mut s = String::with_capacity(8);
        for c in Color::ALL {
            if c == Color::Black {
                s.push('v');
            }
            s.push('K');
            for pt in STRENGTH_ORDER {
                for _ in 0..self.counts[c.index()][pt.index()] {
                    s.push(pt.letter());
                }
            }
        }
        s
    }

    /// Parses a name like `KRNvK` (either orientation; the result is as written).
    pub fn parse(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (c, side) in [(0, w), (1, b)] {
            let mut chars = side.chars();
            if chars.next()? != 'K' {
                return None;
            }
            for ch in chars {
                let pt = PieceType::from_letter(ch).filter(|&pt| pt != PieceType::King && ch.is_ascii_uppercase())?;
                counts[c][pt.index()] += 1;
            }
        }
        let m = Material { counts };
        (m.men() <= 8).then_some(m)
    }

    /// A dense number for the canonical materials of up to four men, for array lookups.
    pub fn code(&self) -> usize {
        let mut code = 0;
        for c in 0..2 {
            for pt in STRENGTH_ORDER {
                code = code * 3 + (self.counts[c][pt.index()].min(2) as usize);
            }
        }
        code
    }

    /// Every canonical ending of 3 to `max_men` men, in an order where each one's
    /// captures and promotions lead only to endings earlier in the list.
    pub fn all(max_men: usize) -> Vec<Material> {
        let mut out = Vec::new();
        let mut sides: Vec<[u8; 6]> = vec![[0; 6]];
        // Every multiset of up to two non-king men for one side.
        for (i, a) in STRENGTH_ORDER.iter().enumerate() {
            let mut one = [0u8; 6];
            one[a.index()] += 1;
            sides.push(one);
            for b in &STRENGTH_ORDER[i..] {
                let mut two = one;
                two[b.index()] += 1;
                sides.push(two);
            }
        }
        for w in &sides {
            for b in &sides {
                let m = Material { counts: [*w, *b] };
                if m.men() >= 3 && m.men() <= max_men && m.is_canonical() && !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        // Promotions keep the number of men and trade a pawn for a met, so fewer pawns first.
        out.sort_by_key(|m| (m.men(), m.count_type(PieceType::Pawn), m.name()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_orient() {
        let m = Material::parse("KNvKR").unwrap();
        assert!(!m.is_canonical());
        assert_eq!(m.canonical().0.name(), "KRvKN");
        assert_eq!(Material::parse("KRNvK").unwrap().name(), "KRNvK");
        assert_eq!(Material::parse("KPvKP").unwrap().canonical(), (Material::parse("KPvKP").unwrap(), false));
        assert!(Material::parse("KQvK").is_none());
        assert!(Material::parse("KRK").is_none());
    }

    #[test]
    fn all_endings_of_up_to_four_men() {
        let all = Material::all(4);
        // 5 three-man endings, 15 with two men beside one king, 15 with one on each side.
        assert_eq!(all.len(), 35);
        let codes: std::collections::HashSet<usize> = all.iter().map(|m| m.code()).collect();
        assert_eq!(codes.len(), 35);
        // A promotion's result (one pawn fewer, one met more) always comes first.
        for (i, m) in all.iter().enumerate() {
            for c in 0..2 {
                if m.counts[c][PieceType::Pawn.index()] > 0 {
                    let mut p = *m;
                    p.counts[c][PieceType::Pawn.index()] -= 1;
                    p.counts[c][PieceType::Met.index()] += 1;
                    let j = all.iter().position(|x| *x == p.canonical().0).unwrap();
                    assert!(j < i, "{} before {}", p, m);
                }
            }
        }
        assert_eq!(Material::all(3).len(), 5);
    }
}
