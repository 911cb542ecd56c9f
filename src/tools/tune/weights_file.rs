//! Reading and rewriting the weight table in `src/eval/weights.rs`.
//!
//! The tuner rewrites the numbers of every `s(mg, eg)` in the `WEIGHTS` table, in table
//! order, and leaves every other character of the file alone: the hand-written comments
//! (a line per term, board labels for the piece-square tables) and the layout stay, and
//! `#[rustfmt::skip]` keeps rustfmt from reflowing the rows. Before writing, it checks that
//! the file's term comments sit where `TERMS` says each term starts, so a table that has
//! drifted from the layout is refused rather than silently shifted.

use crate::eval::{NUM_PARAMS, S, TERMS, s};
use std::ops::Range;

/// Where each weight's numbers are in the file text.
struct Parsed {
    weights: Vec<S>,
    spans: Vec<Range<usize>>,
}

/// Reads the weight table out of the text of weights.rs.
pub fn parse_table(text: &str) -> Result<Vec<S>, String> {
    Ok(parse(text)?.weights)
}

/// The text of weights.rs with the table's numbers replaced by `weights`.
pub fn render(template: &str, weights: &[S]) -> Result<String, String> {
    if weights.len() != NUM_PARAMS {
        return Err(format!("{} weights given, the layout has {NUM_PARAMS}", weights.len()));
    }
    let parsed = parse(template)?;
    let mut out = String::with_capacity(template.len() + 1024);
    let mut at = 0;
    for (span, w) in parsed.spans.iter().zip(weights) {
        out.push_str(&template[at..span.start]);
        out.push_str(&format!("s({}, {})", w.mg, w.eg));
        at = span.end;
    }
    out.push_str(&template[at..]);
    Ok(out)
}

fn parse(text: &str) -> Result<Parsed, String> {
    let decl = text.find("static WEIGHTS").ok_or("no `static WEIGHTS` in the file")?;
    let open = decl + text[decl..].find("= [").ok_or("no `= [` after `static WEIGHTS`")? + 3;
    let mut weights = Vec::with_capacity(NUM_PARAMS);
    let mut spans = Vec::with_capacity(NUM_PARAMS);
    let mut labelled = vec![false; TERMS.len()];
    let bytes = text.as_bytes();
    let mut i = open;
    loop {
        let rest = &text[i..];
        let c = *bytes.get(i).ok_or("the table is not closed by `];`")?;
        if rest.starts_with("];") {
            break;
        } else if rest.starts_with("//") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            check_label(&text[i + 2..end], weights.len(), &mut labelled)?;
            i = end;
        } else if rest.starts_with("s(") {
            let close = rest.find(')').ok_or("unclosed `s(`")?;
            let inner = &rest[2..close];
            let nums: Vec<&str> = inner.split(',').map(str::trim).collect();
            let parsed = match nums.as_slice() {
                [mg, eg] => mg.parse::<i32>().ok().zip(eg.parse::<i32>().ok()),
                _ => None,
            };
            let (mg, eg) = parsed.ok_or_else(|| format!("weight {}: cannot read `s({inner})`", weights.len()))?;
            weights.push(s(mg, eg));
            spans.push(i..i + close + 1);
            i += close + 1;
        } else if c.is_ascii_whitespace() || c == b',' {
            i += 1;
        } else {
            let line = text[..i].lines().count();
            return Err(format!("line {line}: unexpected `{}` in the table", rest.chars().next().unwrap_or(' ')));
        }
    }
    if weights.len() != NUM_PARAMS {
        return Err(format!("the table has {} weights, the layout {NUM_PARAMS}", weights.len()));
    }
    if let Some(t) = TERMS.iter().zip(&labelled).find_map(|(t, &l)| (!l).then_some(t)) {
        return Err(format!("no `// {}` comment line before weight {}, where the term starts", t.name, t.offset));
    }
    Ok(Parsed { weights, spans })
}

/// A comment whose first word names a term must lie inside that term; the one at the
/// term's first weight marks it as labelled.
fn check_label(comment: &str, at: usize, labelled: &mut [bool]) -> Result<(), String> {
    let word = comment.split_whitespace().next().unwrap_or("");
    if let Some(k) = TERMS.iter().position(|t| t.name == word) {
        let t = TERMS[k];
        if !(t.offset..t.offset + t.len).contains(&at) {
            return Err(format!(
                "comment `//{comment}` is at weight {at}, but {} holds weights {}..{}",
                t.name,
                t.offset,
                t.offset + t.len
            ));
        }
        labelled[k] |= at == t.offset;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WEIGHTS;

    const FILE: &str = include_str!("../../eval/weights.rs");

    #[test]
    fn the_source_file_parses_to_the_compiled_table() {
        assert_eq!(parse_table(FILE).unwrap(), WEIGHTS.to_vec());
    }

    #[test]
    fn rendering_the_current_weights_reproduces_the_file() {
        assert_eq!(render(FILE, &WEIGHTS).unwrap(), FILE);
    }

    #[test]
    fn rendered_weights_parse_back_to_the_same_table() {
        let changed: Vec<S> = (0..NUM_PARAMS as i32).map(|i| s(i * 7 - 900, -(i % 13) * 31 + 5)).collect();
        let text = render(FILE, &changed).unwrap();
        assert_eq!(parse_table(&text).unwrap(), changed);
        // Only the numbers changed: the comments and the line structure are the file's.
        assert_eq!(text.lines().count(), FILE.lines().count());
        let comments =
            |t: &str| t.lines().filter(|l| l.trim_start().starts_with("//")).map(str::to_string).collect::<Vec<_>>();
        assert_eq!(comments(&text), comments(FILE));
    }

    #[test]
    fn a_table_out_of_step_with_the_layout_is_refused() {
        // One weight too many.
        let extra = FILE.replacen("s(", "s(0, 0), s(", 1);
        assert!(parse_table(&extra).unwrap_err().contains("weights"));
        // A term's comment line missing, or standing where another term starts.
        let second = TERMS[1].name;
        let moved = FILE.replacen(&format!("// {second}\n"), "", 1);
        assert!(parse_table(&moved).unwrap_err().contains(second));
        let shifted = FILE.replacen(&format!("// {}\n", TERMS[0].name), &format!("// {second}\n"), 1);
        assert!(parse_table(&shifted).is_err());
        assert!(parse_table("pub static WEIGHTS: [S; 1] = [ s(1, x) ];").is_err());
    }
}
