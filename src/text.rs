//! Words for the user: counts with the right plural ("1 frame", "2 frames"), used wherever
//! the library, the command line and the editor print how many of something there are, and
//! messages made sentences.

/// `n` and the word for that many: `count(1, "frame")` is "1 frame", `count(2, "frame")` is
/// "2 frames", `count(0, "box")` is "0 boxes". The plural follows English spelling (`-s`;
/// `-es` after s, x, z, ch and sh; `-ies` after a consonant and y); for any other plural
/// give it with [`count_as`].
pub fn count(n: usize, singular: &str) -> String {
    format!("{n} {}", word(n, singular))
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

/// `n` and `singular` or `plural` as `n` says: `count_as(2, "child", "children")`.
pub fn count_as(n: usize, singular: &str, plural: &str) -> String {
    let word = if n == 1 { singular } else { plural };
    format!("{n} {word}")
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
