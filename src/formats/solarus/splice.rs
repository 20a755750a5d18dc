//! Saving an edited document over the file it was read from: every animation the user did not
//! touch keeps its exact text, and so do the text before the first animation, between
//! animations, and after the last one. Changed animations are re-emitted by the syntax's own
//! writer; new ones are written in the engine's style; deleted ones disappear with the
//! separator that followed them.

use super::data::{AnimationData, Entry};
use crate::model::SequenceId;

/// How one syntax writes animations.
pub trait Syntax {
    /// The text of a new animation, in the engine's style, with `newline` line ends.
    fn new_animation(&self, data: &AnimationData, newline: &str) -> String;
    /// The text of an animation read as `entry` (from `original`) and since changed to `data`.
    fn changed_animation(
        &self,
        original: &[u8],
        entry: &Entry,
        data: &AnimationData,
        newline: &str,
    ) -> String;
    /// What separates two animations in a file this syntax writes from scratch.
    fn separator(&self) -> &'static str;
    /// What ends a file this syntax writes from scratch (after its last animation).
    fn ending(&self) -> &'static str;
}

/// A whole file written from scratch.
pub fn fresh(syntax: &dyn Syntax, animations: &[(SequenceId, AnimationData)]) -> Vec<u8> {
    if animations.is_empty() {
        return Vec::new();
    }
    let bodies: Vec<String> = animations
        .iter()
        .map(|(_, data)| syntax.new_animation(data, "\n"))
        .collect();
    let mut out = bodies.join(syntax.separator());
    out.push_str(syntax.ending());
    out.into_bytes()
}

/// The original file with only the changed animations rewritten.
///
/// `made[i]` is the sequence read from `entries[i]` (`None` if it was left out of the
/// document, in which case its text is kept where it was).
pub fn edited(
    syntax: &dyn Syntax,
    original: &[u8],
    entries: &[Entry],
    made: &[Option<SequenceId>],
    animations: &[(SequenceId, AnimationData)],
) -> Vec<u8> {
    let Some(first) = entries.first() else {
        return append_to_text(syntax, original, animations);
    };
    let newline = if original.windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let last = entries.len() - 1;
    // The separator to use between animations: the file's own, where it has one.
    let default_separator: Vec<u8> = if entries.len() > 1 {
        original[entries[0].span.end..entries[1].span.start].to_vec()
    } else {
        syntax.separator().replace('\n', newline).into_bytes()
    };
    let gap_after = |i: usize| -> Option<&[u8]> {
        (i < last).then(|| &original[entries[i].span.end..entries[i + 1].span.start])
    };
    let entry_of = |id: SequenceId| made.iter().position(|m| *m == Some(id));

    // The pieces in output order: (text, separator that followed it in the file, if any).
    let mut pieces: Vec<(Vec<u8>, Option<&[u8]>)> = Vec::new();
    // Entries left out of the document keep their place after the entry before them.
    let mut kept_out: Vec<usize> = (0..entries.len()).filter(|&i| made[i].is_none()).collect();
    let take_kept_out_before = |position: usize, kept_out: &mut Vec<usize>| -> Vec<usize> {
        let (before, after): (Vec<usize>, Vec<usize>) =
            kept_out.iter().partition(|&&i| i < position);
        *kept_out = after;
        before
    };
    for (id, data) in animations {
        let source = entry_of(*id);
        if let Some(i) = source {
            for k in take_kept_out_before(i, &mut kept_out) {
                pieces.push((original[entries[k].span.clone()].to_vec(), gap_after(k)));
            }
        }
        match source {
            Some(i) if entries[i].data == *data => {
                pieces.push((original[entries[i].span.clone()].to_vec(), gap_after(i)));
            }
            Some(i) => pieces.push((
                syntax
                    .changed_animation(original, &entries[i], data, newline)
                    .into_bytes(),
                gap_after(i),
            )),
            None => pieces.push((syntax.new_animation(data, newline).into_bytes(), None)),
        }
    }
    for k in take_kept_out_before(usize::MAX, &mut kept_out) {
        pieces.push((original[entries[k].span.clone()].to_vec(), gap_after(k)));
    }

    let mut out = original[..first.span.start].to_vec();
    let count = pieces.len();
    for (index, (text, separator)) in pieces.into_iter().enumerate() {
        out.extend_from_slice(&text);
        if index + 1 < count {
            out.extend_from_slice(separator.unwrap_or(&default_separator));
        }
    }
    out.extend_from_slice(&original[entries[last].span.end..]);
    out
}

/// New animations after a file that has none (an empty Lua file, or one with only comments).
fn append_to_text(
    syntax: &dyn Syntax,
    original: &[u8],
    animations: &[(SequenceId, AnimationData)],
) -> Vec<u8> {
    let mut out = original.to_vec();
    if animations.is_empty() {
        return out;
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(&fresh(syntax, animations));
    out
}
