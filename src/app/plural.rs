//! Counts as a reader says them: "1 frame", "3 frames", "0 warnings".

/// `count` and `noun`, plural unless the count is one; nouns whose plural is not `noun` + "s"
/// give it as `plural`.
pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {}", plural_of(noun))
    }
}

fn plural_of(noun: &str) -> String {
    match noun {
        "box" => "boxes".to_string(),
        "thing" | "frame" | "file" | "sprite" | "sequence" | "error" | "warning" => {
            format!("{noun}s")
        }
        other if other.ends_with('x') || other.ends_with('s') => format!("{other}es"),
        other => format!("{other}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "frame"), "1 frame");
        assert_eq!(counted(0, "warning"), "0 warnings");
        assert_eq!(counted(3, "box"), "3 boxes");
        assert_eq!(counted(11, "frame"), "11 frames");
    }
}
