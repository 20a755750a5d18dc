//! ADL's meaning on top of the `.properties` layer: the reserved keys, body parts, skeletons,
//! animations and their frames, with the game's case rules and its failure points reported as
//! diagnostics instead of crashes.
//!
//! Case rules (as `ADProperties.kt` has them): keys are uppercased, so `anim_run` and `ANIM_RUN`
//! collide; variable names inside animation headers, skeleton joint names, transform targets and
//! the skeleton a header names are uppercased too; `CONFIG` names (`SIZE`, `ORIGINX`) are
//! compared as written, and `BODYPARTS` names are kept as written (so a lowercase body part never
//! matches its uppercased joint and is never drawn).

use super::lexer::{Lexed, Property, lex};
use super::values::{Input, Item, decimal_nanos, float_to_int, items, parse_input};
use crate::formats::LineIndex;
use crate::formats::diagnostics::Diagnostic;
use indexmap::IndexMap;
use std::collections::HashMap;
use std::ops::Range;

/// The game clamps DELAY to at least this many nanoseconds (0.0625 s).
pub const MIN_DELAY_NANOS: u64 = 62_500_000;

/// Frames an animation may be missing before Sprat stops filling the gaps with empty frames.
const MAX_FILLED_GAP: usize = 256;

/// Which form of ADL a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Since October 2021: a global `BODYPARTS` gives each part image its anchor pixel.
    Current,
    /// January 2019 to October 2021: no `BODYPARTS`; every joint draws the image named after
    /// it, anchored at the image's centre. The current game refuses these files.
    Legacy,
}

impl Dialect {
    /// A sentence naming the form, for the user.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Current => "current ADL form (with BODYPARTS)",
            Dialect::Legacy => {
                "legacy ADL form (2019-2021, no BODYPARTS): parts are anchored at their image's centre; the current game refuses this form"
            }
        }
    }
}

/// Where something is in the file: a property and, within its value, a decoded byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// Index into [`Lexed::properties`].
    pub property: usize,
    /// The item within the value.
    pub item: Range<usize>,
    /// The item's input token, when it has one.
    pub input: Option<Range<usize>>,
}

/// One `BODYPARTS` entry.
#[derive(Clone, Debug)]
pub struct BodyPart {
    /// The name as written.
    pub name: String,
    /// The anchor pixel, from the image's top-left, y down.
    pub anchor: (i32, i32),
}

/// One joint of a skeleton.
#[derive(Clone, Debug)]
pub struct Joint {
    /// The name, uppercased.
    pub name: String,
    /// Position from the origin, y up.
    pub position: (i32, i32),
    /// Where it is written.
    pub at: At,
}

/// A skeleton property.
#[derive(Clone, Debug)]
pub struct Skeleton {
    /// The key, uppercased.
    pub key: String,
    /// The property it is written in.
    pub property: usize,
    /// The joints in file order (drawn in reverse).
    pub joints: Vec<Joint>,
}

/// What a transform moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `ALL`: every joint.
    All,
    /// One joint, by index into the skeleton.
    Joint(usize),
}

/// One `JOINT dx,dy` of a frame.
#[derive(Clone, Debug)]
pub struct Transform {
    /// What it moves.
    pub target: Target,
    /// The offset, y up.
    pub offset: (i32, i32),
    /// Where it is written.
    pub at: At,
}

/// One frame of an animation.
#[derive(Clone, Debug)]
pub struct AnimFrame {
    /// One-based frame number (the sheet column).
    pub number: usize,
    /// The frame's property; `None` when the file lacks it.
    pub property: Option<usize>,
    /// Its transforms in order.
    pub transforms: Vec<Transform>,
}

/// An animation: a property with a `SKELETON` variable.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The key, uppercased (`ANIM_RUN`).
    pub key: String,
    /// The header property.
    pub property: usize,
    /// Seconds per frame as exact nanoseconds, after the game's minimum.
    pub delay_nanos: u64,
    /// Where DELAY is written.
    pub delay_at: Option<At>,
    /// One-based sheet row; `None` when missing.
    pub row: Option<i32>,
    /// Index into [`AdlFile::skeletons`].
    pub skeleton: Option<usize>,
    /// Frames in play order.
    pub frames: Vec<AnimFrame>,
}

/// A whole ADL file, read.
#[derive(Clone, Debug)]
pub struct AdlFile {
    /// The `.properties` layer.
    pub lexed: Lexed,
    /// Uppercased key -> the property that wins (the last one).
    pub table: IndexMap<String, usize>,
    /// Which form the file is in.
    pub dialect: Dialect,
    /// `SPRITESHEET`, as the game uses it.
    pub spritesheet: Option<String>,
    /// `EXTENSION`, as the game uses it.
    pub extension: Option<String>,
    /// `CONFIG` `SIZE`.
    pub size: Option<(i32, i32)>,
    /// `CONFIG` `ORIGINX`, truncated.
    pub origin_x: Option<i32>,
    /// `BODYPARTS` (current form), by name as written; the last entry of a name wins.
    pub body_parts: IndexMap<String, BodyPart>,
    /// Skeletons used by animations.
    pub skeletons: Vec<Skeleton>,
    /// Animations in file order.
    pub animations: Vec<Animation>,
    /// Everything odd found.
    pub diagnostics: Vec<Diagnostic>,
}

impl AdlFile {
    /// The property at `index`.
    pub fn property(&self, index: usize) -> &Property {
        &self.lexed.properties[index]
    }

    /// True when the file has none of the keys an ADL file needs.
    pub fn looks_empty(&self) -> bool {
        self.animations.is_empty()
            && ["SPRITESHEET", "EXTENSION", "CONFIG", "BODYPARTS"]
                .iter()
                .all(|k| !self.table.contains_key(*k))
    }
}

/// Reads the ADL layer of a file.
pub fn parse(bytes: &[u8]) -> AdlFile {
    let lexed = lex(bytes);
    let mut reader = Reader {
        lines: LineIndex::new(bytes),
        diagnostics: Vec::new(),
    };
    for problem in &lexed.problems {
        reader.report(problem.at, problem.fatal, problem.message.clone());
    }
    let table = reader.table(&lexed);
    let dialect = if table.contains_key("BODYPARTS") {
        Dialect::Current
    } else {
        Dialect::Legacy
    };
    let mut file = AdlFile {
        lexed,
        table,
        dialect,
        spritesheet: None,
        extension: None,
        size: None,
        origin_x: None,
        body_parts: IndexMap::new(),
        skeletons: Vec::new(),
        animations: Vec::new(),
        diagnostics: Vec::new(),
    };
    file.spritesheet = reader.raw_name(&file, "SPRITESHEET");
    file.extension = reader.raw_name(&file, "EXTENSION");
    reader.config(&mut file);
    if dialect == Dialect::Current {
        reader.body_parts(&mut file);
    }
    reader.animations(&mut file);
    file.diagnostics = reader.diagnostics;
    file
}

struct Reader<'a> {
    /// Where each line starts, for the diagnostics' positions.
    lines: LineIndex<'a>,
    diagnostics: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn report(&mut self, raw: usize, error: bool, message: String) {
        let (line, column) = self.lines.line_column(raw);
        self.diagnostics.push(if error {
            Diagnostic::error_at(line, column, message)
        } else {
            Diagnostic::warning_at(line, column, message)
        });
    }

    fn report_in(
        &mut self,
        property: &Property,
        range: Range<usize>,
        error: bool,
        message: String,
    ) {
        let raw = property.raw_range(range).start;
        self.report(raw, error, message);
    }

    fn table(&mut self, lexed: &Lexed) -> IndexMap<String, usize> {
        let mut table: IndexMap<String, usize> = IndexMap::new();
        for (index, property) in lexed.properties.iter().enumerate() {
            let upper = property.key.to_uppercase();
            if let Some(previous) = table.get(&upper).copied() {
                let earlier = &lexed.properties[previous];
                let line = self.lines.line_of(earlier.span.start);
                let message = if earlier.key == property.key {
                    format!(
                        "\"{}\" repeats line {line}; the later one wins",
                        property.key
                    )
                } else {
                    format!(
                        "\"{}\" collides with \"{}\" on line {line} (keys are uppercased); the game's choice is unspecified, Sprat uses the later one",
                        property.key, earlier.key
                    )
                };
                self.report(property.span.start, false, message);
                table.shift_remove(&upper);
            }
            table.insert(upper, index);
        }
        table
    }

    fn required<'f>(&mut self, file: &'f AdlFile, key: &str) -> Option<(usize, &'f Property)> {
        match file.table.get(key) {
            Some(&index) => Some((index, file.property(index))),
            None => {
                if file.dialect == Dialect::Current || key != "BODYPARTS" {
                    self.diagnostics.push(Diagnostic::error_at(
                        1,
                        1,
                        format!("{key} is missing; the game refuses the file without it"),
                    ));
                }
                None
            }
        }
    }

    fn raw_name(&mut self, file: &AdlFile, key: &str) -> Option<String> {
        let (_, property) = self.required(file, key)?;
        let first = items(&property.value).into_iter().next()?;
        let name = property.value[first.name.clone()].to_string();
        if name.len() != property.value.len() {
            self.report_in(
                property,
                first.name.end..property.value.len(),
                false,
                format!("{key} is cut at the first space or ';': the game uses \"{name}\""),
            );
        }
        Some(name)
    }

    fn config(&mut self, file: &mut AdlFile) {
        let Some((_, property)) = self.required(file, "CONFIG") else {
            return;
        };
        let property = property.clone();
        let list = items(&property.value);
        let pair = |input| match input {
            Input::Ivec2(w, h) => Some((w, h)),
            _ => None,
        };
        let number = |input| match input {
            Input::Float(text) => Some(float_to_int(&text)),
            _ => None,
        };
        // Both are `None` until here: CONFIG is read once.
        file.size = self.config_value(&property, &list, "SIZE", "\"w,h\"", pair);
        file.origin_x = self.config_value(&property, &list, "ORIGINX", "a number", number);
    }

    /// The value of the CONFIG item `name` as `accept` takes its input, or `None` with what is
    /// wrong said: the item is missing, or its input is not what it `needs`.
    fn config_value<T>(
        &mut self,
        property: &Property,
        list: &[Item],
        name: &str,
        needs: &str,
        accept: impl FnOnce(Input) -> Option<T>,
    ) -> Option<T> {
        let Some(item) = list
            .iter()
            .find(|i| property.value[i.name.clone()] == *name)
        else {
            self.missing_config(property, list, name);
            return None;
        };
        let value = input_of(property, item).and_then(accept);
        if value.is_none() {
            self.report_in(
                property,
                item.range.clone(),
                true,
                format!("CONFIG {name} needs {needs}"),
            );
        }
        value
    }

    fn missing_config(&mut self, property: &Property, list: &[Item], name: &str) {
        let lower = list
            .iter()
            .find(|i| property.value[i.name.clone()].eq_ignore_ascii_case(name));
        let message = match lower {
            Some(_) => format!(
                "CONFIG {name} must be written in uppercase: the game compares CONFIG names as written"
            ),
            None => format!("CONFIG has no {name}; the game refuses the file"),
        };
        let range = lower.map_or(0..0, |i| i.range.clone());
        self.report_in(property, range, true, message);
    }

    fn body_parts(&mut self, file: &mut AdlFile) {
        let Some((_, property)) = self.required(file, "BODYPARTS") else {
            return;
        };
        let property = property.clone();
        for item in items(&property.value) {
            let name = property.value[item.name.clone()].to_string();
            if name.is_empty() {
                self.report_in(
                    &property,
                    item.range.clone(),
                    true,
                    "empty body part name in BODYPARTS (a trailing ';' or a space after ';'?)"
                        .into(),
                );
                continue;
            }
            let Some(Input::Ivec2(ax, ay)) = input_of(&property, &item) else {
                self.report_in(
                    &property,
                    item.range.clone(),
                    true,
                    format!("body part {name} needs an anchor \"x,y\""),
                );
                continue;
            };
            if name != name.to_uppercase() {
                self.report_in(
                    &property,
                    item.name.clone(),
                    false,
                    format!(
                        "body part \"{name}\" is not uppercase: joints are uppercased, so the game never draws it"
                    ),
                );
            }
            if file.body_parts.contains_key(&name) {
                self.report_in(
                    &property,
                    item.name.clone(),
                    false,
                    format!("body part {name} is listed twice; the later anchor wins"),
                );
            }
            file.body_parts.insert(
                name.clone(),
                BodyPart {
                    name,
                    anchor: (ax, ay),
                },
            );
        }
    }

    fn animations(&mut self, file: &mut AdlFile) {
        let frames_by_prefix = frame_keys(&file.table);
        let mut order: Vec<(String, usize)> =
            file.table.iter().map(|(k, &i)| (k.clone(), i)).collect();
        order.sort_by_key(|(_, i)| *i);
        let mut claimed: Vec<&str> = Vec::new();
        for (key, index) in &order {
            let property = file.property(*index).clone();
            let list = items(&property.value);
            let mut variables: HashMap<String, &Item> = HashMap::new();
            for item in &list {
                variables.insert(property.value[item.name.clone()].to_uppercase(), item);
            }
            let Some(skeleton_item) = variables.get("SKELETON").copied() else {
                continue;
            };
            let skeleton = self.skeleton_of(file, &property, skeleton_item);
            let (delay_nanos, delay_at) = self.delay(&property, *index, variables.get("DELAY"));
            let row = self.row(&property, variables.get("ROW"));
            if !is_game_animation_name(key) {
                self.report(
                    property.key_span.start,
                    true,
                    format!(
                        "the game finds frames only for names like ANIM_NAME (letters only after ANIM_), so {key}'s frames are not found"
                    ),
                );
            }
            let frames = match frames_by_prefix.get(key.as_str()) {
                Some(found) => self.frames(file, key, &property, skeleton, found),
                None => {
                    self.report(
                        property.key_span.start,
                        true,
                        format!("{key} has no frames ({key}_1, {key}_2, ...); the game crashes"),
                    );
                    Vec::new()
                }
            };
            if frames_by_prefix.contains_key(key.as_str()) {
                claimed.push(key);
            }
            file.animations.push(Animation {
                key: key.clone(),
                property: *index,
                delay_nanos,
                delay_at,
                row,
                skeleton,
                frames,
            });
        }
        for (prefix, found) in &frames_by_prefix {
            if prefix.starts_with("ANIM_") && !claimed.contains(&prefix.as_str()) {
                let property = file.property(found[0].1);
                let at = property.span.start;
                self.report(
                    at,
                    false,
                    format!(
                        "{} is a frame of no animation ({prefix} has no SKELETON)",
                        property.key
                    ),
                );
            }
        }
    }

    fn skeleton_of(&mut self, file: &mut AdlFile, header: &Property, item: &Item) -> Option<usize> {
        let name = match input_of(header, item) {
            Some(Input::Str(name)) => name,
            Some(_) | None => {
                self.report_in(
                    header,
                    item.range.clone(),
                    true,
                    "SKELETON needs the name of a skeleton property".into(),
                );
                return None;
            }
        };
        let upper = name.to_uppercase();
        if let Some(found) = file.skeletons.iter().position(|s| s.key == upper) {
            return Some(found);
        }
        let Some(&index) = file.table.get(&upper) else {
            self.report_in(
                header,
                item.input.clone().unwrap_or(item.range.clone()),
                true,
                format!("the skeleton {name} does not exist"),
            );
            return None;
        };
        let property = file.property(index).clone();
        let mut joints = Vec::new();
        for item in items(&property.value) {
            let joint = property.value[item.name.clone()].to_uppercase();
            match input_of(&property, &item) {
                Some(Input::Ivec2(x, y)) if !joint.is_empty() => joints.push(Joint {
                    name: joint,
                    position: (x, y),
                    at: At {
                        property: index,
                        item: item.range.clone(),
                        input: item.input.clone(),
                    },
                }),
                _ => self.report_in(
                    &property,
                    item.range.clone(),
                    true,
                    "a skeleton joint needs \"NAME x,y\"".into(),
                ),
            }
        }
        file.skeletons.push(Skeleton {
            key: upper,
            property: index,
            joints,
        });
        Some(file.skeletons.len() - 1)
    }

    fn delay(
        &mut self,
        header: &Property,
        index: usize,
        item: Option<&&Item>,
    ) -> (u64, Option<At>) {
        let Some(item) = item else {
            self.report_in(
                header,
                0..0,
                true,
                format!(
                    "{} has no DELAY (the game crashes); Sprat plays it at 0.0625 s",
                    header.key
                ),
            );
            return (MIN_DELAY_NANOS, None);
        };
        let at = Some(At {
            property: index,
            item: item.range.clone(),
            input: item.input.clone(),
        });
        let Some(Input::Float(text)) = input_of(header, item) else {
            self.report_in(
                header,
                item.range.clone(),
                true,
                "DELAY needs a number of seconds".into(),
            );
            return (MIN_DELAY_NANOS, at);
        };
        let nanos = match decimal_nanos(&text) {
            Some((nanos, dropped)) => {
                if dropped {
                    self.report_in(
                        header,
                        item.range.clone(),
                        false,
                        format!("DELAY {text} is kept to the nanosecond"),
                    );
                }
                nanos
            }
            None => 0,
        };
        if nanos < MIN_DELAY_NANOS {
            self.report_in(
                header,
                item.range.clone(),
                false,
                format!("DELAY {text} is below the game's minimum; it plays at 0.0625 s"),
            );
            return (MIN_DELAY_NANOS, at);
        }
        (nanos, at)
    }

    fn row(&mut self, header: &Property, item: Option<&&Item>) -> Option<i32> {
        let Some(item) = item else {
            self.report_in(
                header,
                0..0,
                true,
                format!("{} has no ROW (the game crashes)", header.key),
            );
            return None;
        };
        match input_of(header, item) {
            Some(Input::Float(text)) => {
                let row = float_to_int(&text);
                if row < 1 {
                    self.report_in(
                        header,
                        item.range.clone(),
                        false,
                        format!("ROW {row}: rows count from 1, so this animation falls outside the game's sheet"),
                    );
                }
                Some(row)
            }
            _ => {
                self.report_in(
                    header,
                    item.range.clone(),
                    true,
                    "ROW needs a number".into(),
                );
                None
            }
        }
    }

    fn frames(
        &mut self,
        file: &AdlFile,
        key: &str,
        header: &Property,
        skeleton: Option<usize>,
        found: &[(usize, usize)],
    ) -> Vec<AnimFrame> {
        let count = found.iter().map(|(n, _)| *n).max().unwrap_or(0);
        let by_number: HashMap<usize, usize> = found.iter().copied().collect();
        let numbers: Vec<usize> = if count <= found.len() + MAX_FILLED_GAP {
            (1..=count).collect()
        } else {
            self.report(
                header.key_span.start,
                true,
                format!(
                    "{key} has {} frames but numbers them up to {count}; only the existing ones are shown",
                    found.len()
                ),
            );
            let mut present: Vec<usize> = by_number.keys().copied().collect();
            present.sort_unstable();
            present
        };
        let joints = skeleton
            .map(|s| &file.skeletons[s].joints[..])
            .unwrap_or(&[]);
        let mut frames = Vec::with_capacity(numbers.len());
        for number in numbers {
            let Some(&index) = by_number.get(&number) else {
                self.report(
                    header.key_span.start,
                    true,
                    format!(
                        "{key}_{number} is missing (the game crashes); Sprat shows it unchanged"
                    ),
                );
                frames.push(AnimFrame {
                    number,
                    property: None,
                    transforms: Vec::new(),
                });
                continue;
            };
            let property = file.property(index);
            let list = items(&property.value);
            let mut transforms = Vec::new();
            let empty = list.len() == 1 && list[0].name.is_empty() && list[0].input.is_none();
            for item in list.iter().filter(|_| !empty) {
                let name = property.value[item.name.clone()].to_uppercase();
                let target = if name == "ALL" {
                    Some(Target::All)
                } else {
                    joints
                        .iter()
                        .position(|j| j.name == name)
                        .map(Target::Joint)
                };
                let Some(target) = target else {
                    let shown = if name.is_empty() { "(empty)" } else { &name };
                    self.report_in(
                        property,
                        item.range.clone(),
                        true,
                        format!("no such joint in the skeleton: {shown} (the game crashes)"),
                    );
                    continue;
                };
                match input_of(property, item) {
                    Some(Input::Ivec2(x, y)) => transforms.push(Transform {
                        target,
                        offset: (x, y),
                        at: At {
                            property: index,
                            item: item.range.clone(),
                            input: item.input.clone(),
                        },
                    }),
                    _ => self.report_in(
                        property,
                        item.range.clone(),
                        true,
                        format!("the transform of {name} needs \"dx,dy\""),
                    ),
                }
            }
            frames.push(AnimFrame {
                number,
                property: Some(index),
                transforms,
            });
        }
        frames
    }
}

fn input_of(property: &Property, item: &Item) -> Option<Input> {
    item.input
        .clone()
        .map(|range| parse_input(&property.value[range]))
}

/// `ANIM_` followed by uppercase letters only: the names whose frames the game recognises.
pub fn is_game_animation_name(key: &str) -> bool {
    key.strip_prefix("ANIM_")
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_uppercase()))
}

/// Keys of the form `PREFIX_<digits>`, grouped by prefix: (frame number, property index).
fn frame_keys(table: &IndexMap<String, usize>) -> HashMap<String, Vec<(usize, usize)>> {
    let mut out: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for (key, &index) in table {
        let Some((prefix, digits)) = key.rsplit_once('_') else {
            continue;
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let number = digits.bytes().fold(0usize, |n, b| {
            n.saturating_mul(10).saturating_add(usize::from(b - b'0'))
        });
        if number == 0 {
            continue;
        }
        out.entry(prefix.to_string())
            .or_default()
            .push((number, index));
    }
    out
}

/// An animation key the game recognises: `ANIM_` and uppercase letters.
pub(super) fn animation_key(name: &str, index: usize, taken: &[String]) -> String {
    let upper = name.to_ascii_uppercase();
    let bare = upper.strip_prefix("ANIM_").unwrap_or(&upper);
    let mut letters: String = bare.chars().filter(|c| c.is_ascii_uppercase()).collect();
    if letters.is_empty() {
        letters = format!("SEQ{}", column_letters(index));
        letters.retain(|c| c.is_ascii_uppercase());
    }
    let mut key = format!("ANIM_{letters}");
    let mut n = 0;
    while taken.contains(&key) {
        key = format!("ANIM_{letters}{}", column_letters(n));
        n += 1;
    }
    key
}

/// 0 -> A, 25 -> Z, 26 -> AA ...
fn column_letters(mut n: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "SPRITESHEET=s/p_\nEXTENSION=.tga\nCONFIG=SIZE 10,20;ORIGINX 4.9\n\
BODYPARTS=HEAD 2,3;LEG 1,1\nSKELETON_A=HEAD 0,10;LEG 1,2\n\
ANIM_RUN=DELAY 0.25;ROW 2;SKELETON skeleton_a\nANIM_RUN_1=ALL 0,1;leg 1,0\nANIM_RUN_2=\n";

    #[test]
    fn reads_the_reserved_keys_and_an_animation() {
        let file = parse(SMALL.as_bytes());
        assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
        assert_eq!(file.dialect, Dialect::Current);
        assert_eq!(file.spritesheet.as_deref(), Some("s/p_"));
        assert_eq!(file.size, Some((10, 20)));
        assert_eq!(file.origin_x, Some(4));
        assert_eq!(file.body_parts["LEG"].anchor, (1, 1));
        let anim = &file.animations[0];
        assert_eq!((anim.delay_nanos, anim.row), (250_000_000, Some(2)));
        assert_eq!(anim.frames.len(), 2);
        assert_eq!(anim.frames[0].transforms[0].target, Target::All);
        assert_eq!(anim.frames[0].transforms[1].target, Target::Joint(1));
        assert!(anim.frames[1].transforms.is_empty());
    }

    #[test]
    fn crash_points_become_errors() {
        let text =
            "CONFIG=size 1,1\nSKEL=A 0,0\nANIM_X=DELAY 0.01;ROW 1;SKELETON SKEL\nANIM_X_2=B 1,1;\n";
        let file = parse(text.as_bytes());
        let messages: Vec<&str> = file
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        let has = |s: &str| messages.iter().any(|m| m.contains(s));
        assert!(has("SPRITESHEET is missing"), "{messages:?}");
        assert!(has("uppercase"));
        assert!(has("below the game's minimum"));
        assert!(has("ANIM_X_1 is missing"));
        assert!(has("no such joint in the skeleton: B"));
        assert!(has("(empty)"));
        assert_eq!(file.dialect, Dialect::Legacy);
    }
}
