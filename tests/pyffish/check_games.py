#!/usr/bin/env python3
"""Referees finished games again with pyffish (Fairy-Stockfish's own library), for the
`sitke match` integration tests (tests/common/mod.rs).

Reads one game a line on stdin, tab-separated:
    <game number> <start FEN> <uci moves> <SAN moves as the PGN wrote them> <result> <kind>
where kind is how `sitke match` says the game ended: mate, stalemate, repetition, fifty,
counting, promotion (promotion stalemate), insufficient, or unfinished (a forfeit or an
adjudication: the rules had not ended the game). Prints one line per game, `<number> ok
<kind>` or `<number> FAIL <why>`. Checks: the SAN equals get_san_moves of the moves; the
final position ends the game exactly as claimed (legal_moves + game_result for mate and
stalemate, is_optional_game_end for the optional draws, has_insufficient_material), with
the claimed result; and the position before the last move had not ended the game.
"""

import sys

import pyffish as sf

V = "sittuyin"


def ended(fen, moves):
    """None if the game goes on after `moves`, else a short reason."""
    legal = sf.legal_moves(V, fen, moves)
    if not legal:
        return "no legal move"
    if sf.is_optional_game_end(V, fen, moves)[0]:
        return "optional end"
    w, b = sf.has_insufficient_material(V, fen, moves)
    if w and b:
        return "insufficient material"
    return None


def check(fields):
    number, fen, uci, san, result, kind = fields
    moves, sans = uci.split(), san.split()
    if sf.get_san_moves(V, fen, moves) != sans:
        return "SAN differs from get_san_moves: " + " ".join(sf.get_san_moves(V, fen, moves))
    if moves and ended(fen, moves[:-1]):
        return "the game had already ended before the last move: " + ended(fen, moves[:-1])
    final = sf.get_fen(V, fen, moves)
    parts = final.split()
    stm = parts[1]
    legal = sf.legal_moves(V, fen, moves)
    if kind in ("mate", "stalemate"):
        if legal:
            return f"claimed {kind}, but pyffish has legal moves"
        value = sf.game_result(V, fen, moves)
        if kind == "mate":
            want = "0-1" if stm == "w" else "1-0"
            if value >= 0 or result != want:
                return f"claimed mate {result}, pyffish game_result {value} with {stm} to move"
        elif value != 0 or result != "1/2-1/2":
            return f"claimed stalemate {result}, pyffish game_result {value}"
        return None
    if not legal:
        return f"claimed {kind}, but pyffish finds no legal move"
    optional, value = sf.is_optional_game_end(V, fen, moves)
    if kind in ("repetition", "fifty", "counting", "promotion"):
        if not optional or value != 0 or result != "1/2-1/2":
            return f"claimed {kind} {result}, pyffish is_optional_game_end {optional} {value}"
        # The FEN's fifth field is the halfmove clock, or while counting runs the counting
        # ply, which is then never below the halfmove clock (both restart at the captures
        # that matter, and no pawn or drop is left to restart the clock alone).
        counting = parts[3] != "-"
        clock = int(parts[4])
        clue = {
            "fifty": clock >= 100,
            "counting": counting and clock > int(parts[3]),
            "promotion": all(m.endswith("f") for m in legal),
            # The 50-move rule is judged first, so a repetition shows a clock below 100
            # (unless counting hides the clock).
            "repetition": counting or clock < 100,
        }[kind]
        if not clue:
            return f"claimed {kind}, but the final FEN {final} does not show it"
        return None
    w, b = sf.has_insufficient_material(V, fen, moves)
    if kind == "insufficient":
        if optional or not (w and b) or result != "1/2-1/2":
            return f"claimed insufficient material {result}, pyffish says {w} {b} (optional {optional})"
        return None
    if kind == "unfinished":
        if optional or (w and b):
            return f"adjudicated or forfeited, but pyffish ends the game (optional {optional}, insufficient {w} {b})"
        return None
    return f"unknown kind {kind}"


def main():
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 6:
            print(f"? FAIL malformed request {line!r}")
            continue
        why = check(fields)
        print(f"{fields[0]} ok {fields[5]}" if why is None else f"{fields[0]} FAIL {why}")


if __name__ == "__main__":
    main()
