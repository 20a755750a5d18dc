//! `.def` files: INI-like sections of `key = value` lines naming a character's (or stage's,
//! effect's, storyboard's, lifebar's) files.
//!
//! Keys are case-insensitive, `;` starts a comment, values may be quoted. Only what Sprat needs
//! is interpreted: the sprite archive, the animation file and the `.act` palettes.

use super::lexis::{Line, split_lines, trim};

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key, lowercased.
    pub key: String,
    /// The value without quotes, as bytes (paths may be in any encoding).
    pub value: Vec<u8>,
    /// Where `value` is in the file's bytes (inside the quotes, if any).
    pub value_range: std::ops::Range<usize>,
    /// Its line index.
    pub line: usize,
}

/// One `[Name]` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The name between the brackets, lowercased and trimmed.
    pub name: String,
    /// Its entries in order.
    pub entries: Vec<Entry>,
}

/// A parsed `.def`.
#[derive(Clone, Debug, Default)]
pub struct DefFile {
    /// Every section in order (actions included, with no entries).
    pub sections: Vec<Section>,
    /// Every line.
    pub lines: Vec<Line>,
}

impl DefFile {
    /// The first value of `key` in the section `section` (both lowercase).
    pub fn get(&self, section: &str, key: &str) -> Option<&Entry> {
        self.sections
            .iter()
            .filter(|s| s.name == section)
            .flat_map(|s| s.entries.iter())
            .find(|e| e.key == key)
    }

    /// True when the file holds `[Begin Action N]` sections.
    pub fn has_actions(&self) -> bool {
        self.sections.iter().any(|s| is_action_section(&s.name))
    }

    /// The sprite archive: `[Files] sprite` (characters), `[Files] sff` (effects, lifebars),
    /// `spr` in `[BGdef]` (stages) or `[SceneDef]` (storyboards).
    pub fn sprite(&self) -> Option<&Entry> {
        self.get("files", "sprite")
            .or_else(|| self.get("files", "sff"))
            .or_else(|| self.get("bgdef", "spr"))
            .or_else(|| self.get("scenedef", "spr"))
    }

    /// The animation file: `[Files] anim` (characters) or `air` (effects).
    pub fn anim(&self) -> Option<&Entry> {
        self.get("files", "anim")
            .or_else(|| self.get("files", "air"))
    }

    /// `pal1` .. `pal12` of `[Files]`, in palette-number order.
    pub fn palettes(&self) -> Vec<(u32, &Entry)> {
        let mut out: Vec<(u32, &Entry)> = self
            .sections
            .iter()
            .filter(|s| s.name == "files")
            .flat_map(|s| s.entries.iter())
            .filter_map(|e| {
                let number: u32 = e.key.strip_prefix("pal")?.parse().ok()?;
                (1..=12).contains(&number).then_some((number, e))
            })
            .collect();
        out.sort_by_key(|(n, _)| *n);
        out.dedup_by_key(|(n, _)| *n);
        out
    }
}

/// True for `begin action ...` section names (lowercased).
pub fn is_action_section(name: &str) -> bool {
    let mut words = name.split_whitespace();
    words.next() == Some("begin") && words.next() == Some("action")
}

/// Parses a `.def`. Never fails: lines that are neither sections nor `key = value` are skipped.
pub fn parse_def(bytes: &[u8]) -> DefFile {
    let lines = split_lines(bytes);
    let mut sections: Vec<Section> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if line.is_blank() {
            continue;
        }
        let code = &bytes[line.code_range()];
        if code[0] == b'[' {
            let close = code.iter().position(|&b| b == b']').unwrap_or(code.len());
            let (start, end) = trim(bytes, line.code.0 + 1..line.code.0 + close);
            let name = String::from_utf8_lossy(&bytes[start..end]).to_lowercase();
            let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
            sections.push(Section {
                name,
                entries: Vec::new(),
            });
            continue;
        }
        let (Some(section), Some(equals)) =
            (sections.last_mut(), code.iter().position(|&b| b == b'='))
        else {
            continue;
        };
        let (key_start, key_end) = trim(bytes, line.code.0..line.code.0 + equals);
        let (value_start, value_end) = trim(bytes, line.code.0 + equals + 1..line.code.1);
        let mut value_range = value_start..value_end;
        let value = &bytes[value_range.clone()];
        if value.len() >= 2 && value[0] == b'"' && value[value.len() - 1] == b'"' {
            value_range = value_start + 1..value_end - 1;
        }
        section.entries.push(Entry {
            key: String::from_utf8_lossy(&bytes[key_start..key_end]).to_lowercase(),
            value: bytes[value_range.clone()].to_vec(),
            value_range,
            line: index,
        });
    }
    DefFile { sections, lines }
}

/// A path value as a string (paths in `.def`s are ASCII in practice; other bytes are replaced).
pub fn path_text(value: &[u8]) -> String {
    String::from_utf8_lossy(value).replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_case_insensitive_and_values_lose_quotes_and_comments() {
        let def = parse_def(
            b"\xEF\xBB\xBF; c\n[Info]\nName = \"Kung Fu Man\" ;x\n[ FILES ]\nSprite  = chars\\kfm.sff ; y\nanim=kfm.air\npal3 = c.act\npal1 = a.act\npal13 = no.act\n[Begin Action 0]\n0,0,0,0,1\n",
        );
        assert_eq!(def.get("info", "name").unwrap().value, b"Kung Fu Man");
        assert_eq!(path_text(&def.sprite().unwrap().value), "chars/kfm.sff");
        assert_eq!(def.anim().unwrap().value, b"kfm.air");
        let pals: Vec<u32> = def.palettes().iter().map(|(n, _)| *n).collect();
        assert_eq!(pals, vec![1, 3]);
        assert!(def.has_actions());
    }

    #[test]
    fn stages_and_storyboards_name_their_archive_with_spr() {
        let def = parse_def(b"[BGdef]\nspr = stage0.sff\n");
        assert_eq!(def.sprite().unwrap().value, b"stage0.sff");
        let def = parse_def(b"[SceneDef]\nSpr = intro.sff\n");
        assert_eq!(def.sprite().unwrap().value, b"intro.sff");
        assert!(!def.has_actions());
    }
}
