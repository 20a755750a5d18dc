//! Words for the user: counts with the right plural ("1 frame", "2 frames"), used wherever
//! the library, the command line and the editor print how many of something there are,
//! messages made sentences, and a file named by its name alone or a name made fit for one.

/// `n` and the word for that many: `count(1, "frame")` is "1 frame", `count(2, "frame")` is
/// "2 frames", `count(0, "box")` is "0 boxes". The plural follows English spelling (`-s`;
/// `-es` after s, x, z, ch and sh; `-ies` after a consonant and y); for any other plural
/// give it with [`count_as`].
pub fn count(n: usize, singular: &str) -> String {
    format!("{n} {}", word(n, singular))
}

/// A file named by the last part of its path ("kfm.air" for "chars/kfm/kfm.air"), where the
/// folder is said elsewhere or would not fit; the whole path when it has no last part.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// `name` with every character but letters, digits, `-`, `_` and `.` replaced by `_`, so it
/// can stand in a file name on any system.
pub fn file_name_characters(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A message as a sentence of its own: its first letter in capitals ("no frame is selected"
/// becomes "No frame is selected").
pub fn capitalised(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What one box of the class named `class` is called: "hit box", "shield box"; a class whose
/// name already says it is a box ("hitbox", "Hurt Box") by its name alone, not "hitbox box".
pub fn box_of(class: &str) -> String {
    if class.to_ascii_lowercase().ends_with("box") {
        class.to_string()
    } else {
        format!("{class} box")
    }
}

/// What several boxes of the class named `class` are called: "hit boxes", "hitboxes".
pub fn boxes_of(class: &str) -> String {
    plural(&box_of(class))
}

/// `n` boxes of the class named `class`: "1 hit box", "3 hitboxes".
pub fn count_boxes(n: usize, class: &str) -> String {
    if n == 1 {
        format!("1 {}", box_of(class))
    } else {
        format!("{n} {}", boxes_of(class))
    }
}

/// `n` and `singular` or `plural` as `n` says: `count_as(2, "child", "children")`.
pub fn count_as(n: usize, singular: &str, plural: &str) -> String {
    let word = if n == 1 { singular } else { plural };
    format!("{n} {word}")
}

/// An action on `n` things, as a history label names it: `acting_on("Delete", 1, "box")` is
/// "Delete box", `acting_on("Delete", 3, "box")` "Delete 3 boxes".
pub fn acting_on(verb: &str, n: usize, singular: &str) -> String {
    if n == 1 {
        format!("{verb} {singular}")
    } else {
        format!("{verb} {}", count(n, singular))
    }
}

/// The word alone for `n` of them: `word(1, "frame")` is "frame", `word(3, "frame")` "frames".
pub fn word(n: usize, singular: &str) -> String {
    if n == 1 {
        singular.to_string()
    } else {
        plural(singular)
    }
}

/// The regular English plural of `singular`.
pub fn plural(singular: &str) -> String {
    let lower = singular.to_ascii_lowercase();
    let sibilant = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| lower.ends_with(end));
    if sibilant {
        return format!("{singular}es");
    }
    let mut chars = lower.chars().rev();
    if let (Some('y'), Some(before)) = (chars.next(), chars.next())
        && !"aeiou".contains(before)
    {
        return format!("{}ies", &singular[..singular.len() - 1]);
    }
    format!("{singular}s")
}

/// The sentence saying an edit was done, from its history label ("Mirror boxes
/// horizontally") and how many frames it changed: "Mirrored boxes horizontally on 4 frames".
/// The count is left out when the label already speaks of frames or when one frame (the one
/// on show) changed.
pub fn done(label: &str, frames_changed: usize) -> String {
    let mut sentence = past_tense(label);
    if frames_changed > 1 && !label.to_ascii_lowercase().contains("frame") {
        sentence.push_str(&format!(" on {}", count(frames_changed, "frame")));
    }
    sentence
}

/// A history label ("Delete 3 frames", "Set duration to 120 ms") told as done ("Deleted 3
/// frames", "Set duration to 120 ms"). A label that does not start with a known verb is
/// given as it is after "Done: ".
pub fn past_tense(label: &str) -> String {
    const VERBS: &[(&str, &str)] = &[
        ("Add", "Added"),
        ("Align", "Aligned"),
        ("Change", "Changed"),
        ("Choose", "Chose"),
        ("Clear", "Cleared"),
        ("Copy", "Copied"),
        ("Create", "Created"),
        ("Cut", "Cut"),
        ("Delete", "Deleted"),
        ("Draw", "Drew"),
        ("Duplicate", "Duplicated"),
        ("Fit", "Fitted"),
        ("Flip", "Flipped"),
        ("Hang", "Hung"),
        ("Import", "Imported"),
        ("Insert", "Inserted"),
        ("Interpolate", "Interpolated"),
        ("Loop", "Set to loop"),
        ("Mirror", "Mirrored"),
        ("Move", "Moved"),
        ("Nudge", "Nudged"),
        ("Paste", "Pasted"),
        ("Play", "Set to play"),
        ("Remove", "Removed"),
        ("Rename", "Renamed"),
        ("Reorder", "Reordered"),
        ("Replace", "Replaced"),
        ("Resize", "Resized"),
        ("Restore", "Restored"),
        ("Retime", "Retimed"),
        ("Reverse", "Reversed"),
        ("Rotate", "Rotated"),
        ("Scale", "Scaled"),
        ("Set", "Set"),
        ("Split", "Split"),
        ("Trace", "Traced"),
    ];
    let (first, rest) = label.split_once(' ').unwrap_or((label, ""));
    match VERBS.iter().find(|(verb, _)| *verb == first) {
        Some((_, done)) if rest.is_empty() => done.to_string(),
        Some((_, done)) => format!("{done} {rest}"),
        None => format!("Done: {label}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_letters_digits_dashes_underscores_and_dots_stand_in_a_file_name() {
        assert_eq!(file_name_characters("walk left/2:b"), "walk_left_2_b");
        assert_eq!(file_name_characters("Gehen-2_x.ü"), "Gehen-2_x.ü");
    }

    #[test]
    fn an_action_on_one_thing_leaves_the_number_out() {
        assert_eq!(acting_on("Delete", 1, "box"), "Delete box");
        assert_eq!(acting_on("Delete", 3, "box"), "Delete 3 boxes");
        assert_eq!(acting_on("Move", 0, "element"), "Move 0 elements");
    }

    #[test]
    fn counts_take_the_plural_only_when_not_one() {
        assert_eq!(count(1, "frame"), "1 frame");
        assert_eq!(count(0, "frame"), "0 frames");
        assert_eq!(count(2, "frame"), "2 frames");
        assert_eq!(count(3, "box"), "3 boxes");
        assert_eq!(count(1, "box"), "1 box");
        assert_eq!(count(2, "entry"), "2 entries");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(2, "patch"), "2 patches");
        assert_eq!(count(2, "thing"), "2 things");
        assert_eq!(count_as(1, "child", "children"), "1 child");
        assert_eq!(count_as(4, "child", "children"), "4 children");
        assert_eq!(word(1, "warning"), "warning");
        assert_eq!(word(5, "error"), "errors");
    }

    #[test]
    fn labels_are_told_as_done_with_the_frames_changed() {
        assert_eq!(
            done("Mirror boxes horizontally", 4),
            "Mirrored boxes horizontally on 4 frames"
        );
        assert_eq!(done("Set duration to 120 ms", 1), "Set duration to 120 ms");
        assert_eq!(done("Delete 3 frames", 3), "Deleted 3 frames");
        assert_eq!(
            done("Copy boxes to next frame", 1),
            "Copied boxes to next frame"
        );
        assert_eq!(done("Move in tree", 0), "Moved in tree");
        assert_eq!(done("Loop from frame 2", 0), "Set to loop from frame 2");
        assert_eq!(past_tense("Frobnicate"), "Done: Frobnicate");
        assert_eq!(past_tense("Duplicate"), "Duplicated");
    }

    #[test]
    fn a_class_named_box_is_not_called_a_box_box() {
        assert_eq!(box_of("hit"), "hit box");
        assert_eq!(box_of("hitbox"), "hitbox");
        assert_eq!(box_of("Hurt Box"), "Hurt Box");
        assert_eq!(boxes_of("hurt"), "hurt boxes");
        assert_eq!(boxes_of("hitbox"), "hitboxes");
        assert_eq!(count_boxes(1, "shield"), "1 shield box");
        assert_eq!(count_boxes(2, "hurtbox"), "2 hurtboxes");
    }
}
