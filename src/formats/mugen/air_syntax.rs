//! AIR text to a syntax tree of byte ranges: actions, frame lines, Clsn groups, Loopstart and
//! Interpolate lines, each remembered by its line so the writer can keep or rewrite it.
//!
//! The rules are those of `mugen-air.txt` and `mugen-air-rules.md`: case-insensitive keywords,
//! `;` comments, up to 10 fields with empty optional fields, the modifiers apply to the next
//! frame line, and any section other than `[Begin Action N]` ends an action (so the same parser
//! reads `.air` files and the actions inside `.def` files).

use super::lexis::{
    Field, Line, ScannedFields, column_of, is_blank_byte, parse_decimal, parse_i32, parse_int,
    scan_fields, split_lines, starts_with_ignore_case, trim,
};
use crate::formats::Diagnostic;
use crate::model::{BlendMode, Fx};
use std::collections::HashMap;
use std::ops::Range;

/// The most fields a frame line has (`group, image, x, y, ticks, flip, blend, xscale, yscale,
/// angle`).
pub const MAX_FRAME_FIELDS: usize = 10;

/// A parsed AIR text.
#[derive(Clone, Debug)]
pub struct AirSyntax {
    /// Every line of the file.
    pub lines: Vec<Line>,
    /// The actions, in file order (duplicates included).
    pub actions: Vec<ActionSyntax>,
    /// Every Clsn group of every frame, in file order; frames name theirs by range
    /// ([`AirSyntax::clsn`]). One list for the file instead of one per frame: a character has
    /// hundreds of groups, and allocating each on its own was a fifth of the parse.
    pub groups: Vec<ClsnGroup>,
    /// Every box line of every group, in file order ([`AirSyntax::boxes`]).
    pub boxes: Vec<BoxLine>,
    /// What was odd or wrong, in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl AirSyntax {
    /// The Clsn groups declared for `frame`, in file order.
    pub fn clsn(&self, frame: &FrameSyntax) -> &[ClsnGroup] {
        &self.groups[frame.clsn.clone()]
    }

    /// The box lines of `group`.
    pub fn boxes(&self, group: &ClsnGroup) -> &[BoxLine] {
        &self.boxes[group.boxes.clone()]
    }
}

/// One `[Begin Action N]` block.
#[derive(Clone, Debug)]
pub struct ActionSyntax {
    /// The action number.
    pub number: i32,
    /// The line index of the header.
    pub header: usize,
    /// The number's bytes in the header.
    pub number_span: (usize, usize),
    /// The line index just past the block (the next section header, or the line count).
    pub end: usize,
    /// The frames, in order.
    pub frames: Vec<FrameSyntax>,
    /// The frame index `Loopstart` points at (0 without one).
    pub loop_frame: usize,
    /// True when the action repeats an earlier action's number.
    pub duplicate: bool,
    /// The comment line right above the header that names the action (`; Standing
    /// Animation`), if there is one.
    pub title: Option<TitleLine>,
}

/// A comment line that names the action below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TitleLine {
    /// Its line index.
    pub line: usize,
    /// The title's bytes in the file: the comment's text without the `;` and the blanks
    /// around it.
    pub span: (usize, usize),
    /// Those bytes as text: UTF-8 when they are, else Latin-1 (the writer keeps the bytes
    /// themselves until the title is edited).
    pub text: String,
}

/// Comment bytes as text: UTF-8 when they are, else one character per byte (Latin-1).
pub fn decode_comment(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The title a comment line gives the action right below it: the text after the `;`s, when it
/// has a letter or a digit (a line of dashes is a separator, not a name).
pub fn title_of_line(bytes: &[u8], line: &Line) -> Option<(usize, usize)> {
    if !line.is_blank() {
        return None;
    }
    let text = &bytes[line.start..line.end];
    let semicolon = text.iter().position(|&b| b == b';')?;
    if !text[..semicolon].iter().all(|&b| is_blank_byte(b)) {
        return None;
    }
    let after = text[semicolon..].iter().position(|&b| b != b';')? + semicolon;
    let (start, end) = trim(bytes, line.start + after..line.end);
    let title = &bytes[start..end];
    // Anything beyond ASCII (Latin-1 or Shift-JIS names) counts as a letter.
    title
        .iter()
        .any(|b| b.is_ascii_alphanumeric() || !b.is_ascii())
        .then_some((start, end))
}

impl ActionSyntax {
    /// The first line index after the last frame line (the start of the trailing lines).
    pub fn tail(&self) -> usize {
        self.frames.last().map_or(self.header + 1, |f| f.line + 1)
    }
}

/// What `Interpolate` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpolateKind {
    /// `Interpolate Offset`.
    Offset,
    /// `Interpolate Blend`.
    Blend,
    /// `Interpolate Scale`.
    Scale,
    /// `Interpolate Angle`.
    Angle,
}

/// One frame line and the modifier lines before it.
#[derive(Clone, Debug)]
pub struct FrameSyntax {
    /// The first line index that belongs to this frame (just after the previous frame line or
    /// the header): comments, Clsn groups, Loopstart and Interpolate lines.
    pub lead: usize,
    /// The frame line's index.
    pub line: usize,
    /// Its values (its fields are found again by [`FrameSyntax::fields`]).
    pub values: FrameValues,
    /// Its Clsn groups, as a range of [`AirSyntax::groups`] (see [`AirSyntax::clsn`]).
    pub clsn: Range<usize>,
    /// Its `Loopstart` lines.
    pub loopstarts: Vec<usize>,
    /// Its `Interpolate` lines.
    pub interpolations: Vec<(usize, InterpolateKind)>,
}

impl FrameSyntax {
    /// The fields of the frame line (the first ten: engines ignore the rest). Only writers need
    /// them, so they are split again here rather than kept for every frame of every file read.
    pub fn fields(&self, bytes: &[u8], lines: &[Line]) -> ScannedFields<MAX_FRAME_FIELDS> {
        scan_fields(bytes, lines[self.line].code_range())
    }
}

/// The values of a frame line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameValues {
    /// Sprite group (-1: blank).
    pub group: i32,
    /// Sprite image.
    pub image: i32,
    /// Horizontal offset.
    pub x: Fx,
    /// Vertical offset.
    pub y: Fx,
    /// Ticks; negative = forever.
    pub ticks: i64,
    /// `H` in the flip field.
    pub flip_h: bool,
    /// `V` in the flip field.
    pub flip_v: bool,
    /// The blend field.
    pub blend: BlendMode,
    /// Horizontal scale.
    pub scale_x: f64,
    /// Vertical scale.
    pub scale_y: f64,
    /// Angle, degrees counter-clockwise as AIR writes it.
    pub angle: f64,
}

impl Default for FrameValues {
    fn default() -> Self {
        FrameValues {
            group: -1,
            image: -1,
            x: Fx::ZERO,
            y: Fx::ZERO,
            ticks: 1,
            flip_h: false,
            flip_v: false,
            blend: BlendMode::Normal,
            scale_x: 1.0,
            scale_y: 1.0,
            angle: 0.0,
        }
    }
}

/// A `ClsnN:` or `ClsnNDefault:` declaration and its box lines.
#[derive(Clone, Debug)]
pub struct ClsnGroup {
    /// 1 (hit) or 2 (hurt).
    pub class: u8,
    /// `Default` was written.
    pub default: bool,
    /// The declaration's line index.
    pub line: usize,
    /// The keyword before `:` (`Clsn2Default`).
    pub keyword: (usize, usize),
    /// The declared count and its bytes.
    pub count: Option<(i64, (usize, usize))>,
    /// The box lines that follow, as a range of [`AirSyntax::boxes`].
    pub boxes: Range<usize>,
}

/// One `ClsnN[i] = left, top, right, bottom` line.
#[derive(Clone, Debug)]
pub struct BoxLine {
    /// The line index.
    pub line: usize,
    /// The index digits inside `[...]`, if written.
    pub index: Option<(usize, usize)>,
    /// The text after `=` (the four coordinate fields), up to a comment.
    pub values: (usize, usize),
    /// left, top, right, bottom as written.
    pub corners: [Fx; 4],
}

impl BoxLine {
    /// The four coordinate fields (split again: only writers need them).
    pub fn fields(&self, bytes: &[u8]) -> [Field; 4] {
        scan_fields::<4>(bytes, self.values.0..self.values.1).fields
    }
}

/// Parses an AIR text. `standalone` is true for `.air` files, where text outside actions is
/// worth a warning; in `.def` files other sections are normal.
pub fn parse_air(bytes: &[u8], standalone: bool) -> AirSyntax {
    let lines = split_lines(bytes);
    let mut parser = Parser {
        bytes,
        lines: &lines,
        actions: Vec::new(),
        groups: Vec::new(),
        boxes: Vec::new(),
        first_headers: HashMap::new(),
        diagnostics: Vec::new(),
        current: None,
        pending: Pending::default(),
        in_other_section: false,
        warned_outside: false,
        standalone,
    };
    for index in 0..lines.len() {
        parser.line(index);
    }
    parser.finish_action(lines.len());
    // Grown by doubling, the lists were up to half empty; a read holds them while it builds
    // the document beside them.
    parser.actions.shrink_to_fit();
    parser.groups.shrink_to_fit();
    parser.boxes.shrink_to_fit();
    AirSyntax {
        actions: parser.actions,
        groups: parser.groups,
        boxes: parser.boxes,
        diagnostics: parser.diagnostics,
        lines,
    }
}

/// Modifier lines waiting for the next frame line.
#[derive(Default)]
struct Pending {
    lead: Option<usize>,
    /// Where the waiting Clsn groups start in `Parser::groups` (they run to its end).
    clsn_start: usize,
    /// A group still taking box lines.
    open_group: bool,
    loopstarts: Vec<usize>,
    interpolations: Vec<(usize, InterpolateKind)>,
}

struct Parser<'a> {
    bytes: &'a [u8],
    lines: &'a [Line],
    actions: Vec<ActionSyntax>,
    groups: Vec<ClsnGroup>,
    boxes: Vec<BoxLine>,
    /// The header line of the first action with each number, to find duplicates.
    first_headers: HashMap<i32, usize>,
    diagnostics: Vec<Diagnostic>,
    current: Option<ActionSyntax>,
    pending: Pending,
    in_other_section: bool,
    warned_outside: bool,
    standalone: bool,
}

impl<'a> Parser<'a> {
    fn text(&self, range: (usize, usize)) -> &'a [u8] {
        &self.bytes[range.0..range.1]
    }

    fn warn(&mut self, line: usize, offset: usize, message: String) {
        let l = &self.lines[line];
        let column = column_of(self.bytes, l, offset);
        self.diagnostics
            .push(Diagnostic::warning_at(line as u32 + 1, column, message));
    }

    fn error(&mut self, line: usize, offset: usize, message: String) {
        let l = &self.lines[line];
        let column = column_of(self.bytes, l, offset);
        self.diagnostics
            .push(Diagnostic::error_at(line as u32 + 1, column, message));
    }

    fn line(&mut self, index: usize) {
        let line = self.lines[index];
        if line.is_blank() {
            return;
        }
        let code = self.text(line.code);
        if code[0] == b'[' {
            self.section(index);
            return;
        }
        if self.current.is_none() {
            if self.standalone && !self.in_other_section && !self.warned_outside {
                // Once is enough: a file that is not AIR at all would otherwise get one per line.
                self.warned_outside = true;
                self.warn(
                    index,
                    line.code.0,
                    "text outside any [Begin Action] section is ignored (here and after)".into(),
                );
            }
            return;
        }
        if self.pending.lead.is_none() {
            self.pending.lead = Some(self.frame_lead(index));
        }
        if starts_with_ignore_case(code, b"clsn") {
            self.clsn(index);
            return;
        }
        self.close_group();
        if code.eq_ignore_ascii_case(b"loopstart") {
            self.pending.loopstarts.push(index);
        } else if starts_with_ignore_case(code, b"interpolate") {
            self.interpolate(index);
        } else if matches!(code[0], b'0'..=b'9' | b'-' | b'+' | b'.') {
            self.frame(index);
        } else {
            self.warn(
                index,
                line.code.0,
                "not a frame, Clsn, Loopstart or Interpolate line; it is kept but ignored".into(),
            );
        }
    }

    /// The first line of the frame now starting: just after the previous frame line.
    fn frame_lead(&self, index: usize) -> usize {
        let action = self.current.as_ref().expect("inside an action");
        action
            .frames
            .last()
            .map_or(action.header + 1, |f| f.line + 1)
            .min(index)
    }

    fn section(&mut self, index: usize) {
        let line = self.lines[index];
        self.finish_action(index);
        let inner_end = match self.text(line.code).iter().position(|&b| b == b']') {
            Some(p) => line.code.0 + p,
            None => line.code.1,
        };
        let (start, end) = trim(self.bytes, line.code.0 + 1..inner_end);
        let inner = self.text((start, end));
        let Some(after_begin) = keyword(inner, b"begin") else {
            self.in_other_section = true;
            return;
        };
        let Some(after_action) = keyword(&inner[after_begin..], b"action") else {
            self.in_other_section = true;
            return;
        };
        let number_start = start + after_begin + after_action;
        let number_span = trim(self.bytes, number_start..end);
        let Some(number) = parse_i32(self.text(number_span)) else {
            self.error(
                index,
                number_span.0,
                "the action number is missing or not a whole number; this section is ignored"
                    .into(),
            );
            self.in_other_section = true;
            return;
        };
        let first = *self.first_headers.entry(number).or_insert(index);
        let duplicate = first != index;
        if duplicate {
            let message = format!(
                "action {number} is already defined on line {}; both are kept, engines use the first",
                first + 1
            );
            self.warn(index, number_span.0, message);
        }
        self.in_other_section = false;
        self.current = Some(ActionSyntax {
            number,
            header: index,
            number_span,
            end: index + 1,
            // Most actions have a handful of frames: one allocation instead of two or three.
            frames: Vec::with_capacity(8),
            loop_frame: 0,
            duplicate,
            title: index.checked_sub(1).and_then(|above| {
                title_of_line(self.bytes, &self.lines[above]).map(|span| TitleLine {
                    line: above,
                    span,
                    text: decode_comment(&self.bytes[span.0..span.1]),
                })
            }),
        });
    }

    fn finish_action(&mut self, end: usize) {
        self.close_group();
        let Some(mut action) = self.current.take() else {
            return;
        };
        let pending = self.take_pending();
        for &line in &pending.loopstarts {
            let at = self.lines[line].code.0;
            self.warn(line, at, "Loopstart after the last frame is ignored".into());
        }
        for &(line, _) in &pending.interpolations {
            let at = self.lines[line].code.0;
            self.warn(
                line,
                at,
                "Interpolate after the last frame is ignored".into(),
            );
        }
        for g in pending.clsn_start..self.groups.len() {
            let line = self.groups[g].line;
            let at = self.lines[line].code.0;
            self.warn(
                line,
                at,
                "Clsn boxes after the last frame belong to no frame and are ignored".into(),
            );
        }
        // They belong to nothing: drop them and their boxes.
        if let Some(first) = self.groups.get(pending.clsn_start) {
            self.boxes.truncate(first.boxes.start);
            self.groups.truncate(pending.clsn_start);
            self.pending.clsn_start = pending.clsn_start;
        }
        let frame_count = action.frames.len();
        if let Some(forever) = action.frames[..frame_count.saturating_sub(1)]
            .iter()
            .position(|f| f.values.ticks < 0)
        {
            let frame = &action.frames[forever];
            let (line, at) = (frame.line, frame.fields(self.bytes, self.lines)[4].value.0);
            let message = format!(
                "frame {forever} of action {} holds forever, so the {} after it never {}",
                action.number,
                crate::text::count(frame_count - forever - 1, "frame"),
                if frame_count - forever - 1 == 1 {
                    "plays"
                } else {
                    "play"
                }
            );
            self.warn(line, at, message);
        }
        if action.frames.is_empty() {
            let at = self.lines[action.header].code.0;
            let message = format!("action {} has no frames", action.number);
            self.warn(action.header, at, message);
        }
        action.end = end;
        action.frames.shrink_to_fit();
        self.actions.push(action);
    }

    /// The modifiers waiting for a frame, leaving none waiting.
    fn take_pending(&mut self) -> Pending {
        let next = Pending {
            clsn_start: self.groups.len(),
            ..Pending::default()
        };
        std::mem::replace(&mut self.pending, next)
    }

    fn close_group(&mut self) {
        if !self.pending.open_group {
            return;
        }
        self.pending.open_group = false;
        let Some(group) = self.groups.last() else {
            return;
        };
        if let Some((count, span)) = group.count
            && count != group.boxes.len() as i64
        {
            let (line, class, found) = (group.line, group.class, group.boxes.len());
            let message = format!(
                "Clsn{class} declares {} but {found} {}",
                match count {
                    1 => "1 box".to_string(),
                    n => format!("{n} boxes"),
                },
                if found == 1 { "follows" } else { "follow" }
            );
            self.warn(line, span.0, message);
        }
    }

    fn clsn(&mut self, index: usize) {
        let line = self.lines[index];
        let code = self.text(line.code);
        // `Clsn` then an optional type digit, then `Default:`, `:` or `[i] =` / `=`.
        let after = &code[4..];
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        let class = parse_i32(&after[..digits]);
        let rest = &after[digits..];
        let rest_offset = line.code.0 + 4 + digits;
        let is_default = starts_with_ignore_case(rest, b"default");
        let after_default = if is_default { &rest[7..] } else { rest };
        let trimmed_start = after_default
            .iter()
            .position(|b| !super::lexis::is_blank_byte(*b))
            .unwrap_or(after_default.len());
        if after_default.get(trimmed_start) == Some(&b':') {
            let colon = line.code.1 - after_default.len() + trimmed_start;
            self.declaration(index, class, is_default, colon);
        } else if !is_default && matches!(rest.first(), Some(b'[') | Some(b'=') | Some(b' ')) {
            self.box_line(index, class, rest_offset);
        } else {
            self.close_group();
            self.warn(
                index,
                line.code.0,
                "not a Clsn declaration or box line; it is kept but ignored".into(),
            );
        }
    }

    fn declaration(&mut self, index: usize, class: Option<i32>, default: bool, colon: usize) {
        self.close_group();
        let line = self.lines[index];
        let Some(class @ (1 | 2)) = class else {
            self.warn(
                index,
                line.code.0,
                "only Clsn1 and Clsn2 exist; this declaration is kept but ignored".into(),
            );
            return;
        };
        let count_span = trim(self.bytes, colon + 1..line.code.1);
        let count = if count_span.0 == count_span.1 {
            self.warn(index, colon, "the number of boxes is missing".into());
            None
        } else {
            match parse_int(self.text(count_span)) {
                Some(n) => Some((n, count_span)),
                None => {
                    self.warn(
                        index,
                        count_span.0,
                        "the number of boxes is not a number".into(),
                    );
                    None
                }
            }
        };
        let waiting = &self.groups[self.pending.clsn_start..];
        if let Some(earlier) = waiting.iter().find(|g| g.class == class as u8) {
            let message = format!(
                "Clsn{class} is declared again before the same frame (first on line {}); the later one counts",
                earlier.line + 1
            );
            self.warn(index, line.code.0, message);
        }
        let first_box = self.boxes.len();
        self.groups.push(ClsnGroup {
            class: class as u8,
            default,
            line: index,
            keyword: trim(self.bytes, line.code.0..colon),
            count,
            boxes: first_box..first_box,
        });
        self.pending.open_group = true;
    }

    fn box_line(&mut self, index: usize, class: Option<i32>, rest_offset: usize) {
        let line = self.lines[index];
        let Some(equals) = self
            .text((rest_offset, line.code.1))
            .iter()
            .position(|&b| b == b'=')
        else {
            self.error(
                index,
                line.code.0,
                "a Clsn box line needs `=` and four numbers".into(),
            );
            return;
        };
        let equals = rest_offset + equals;
        let index_span = self
            .text((rest_offset, equals))
            .iter()
            .position(|&b| b == b'[')
            .and_then(|open| {
                let open = rest_offset + open;
                let close = self.text((open, equals)).iter().position(|&b| b == b']')?;
                Some(trim(self.bytes, open + 1..open + close))
            });
        let bytes = self.bytes;
        let scanned = scan_fields::<4>(bytes, equals + 1..line.code.1);
        let parsed = (scanned.count == 4)
            .then(|| {
                let mut corners = [Fx::ZERO; 4];
                for ((corner, field), number) in
                    corners.iter_mut().zip(&scanned.fields).zip(scanned.numbers)
                {
                    *corner = match number {
                        Some(whole) => fx_from_whole(whole),
                        None => parse_fx(&bytes[field.value_range()])?,
                    };
                }
                Some(corners)
            })
            .flatten();
        let Some(corners) = parsed else {
            self.error(
                index,
                equals + 1,
                "a Clsn box needs four numbers: left, top, right, bottom".into(),
            );
            return;
        };
        if !self.pending.open_group {
            self.warn(
                index,
                line.code.0,
                "a Clsn box line outside a Clsn declaration is ignored".into(),
            );
            return;
        }
        self.boxes.push(BoxLine {
            line: index,
            index: index_span,
            values: (equals + 1, line.code.1),
            corners,
        });
        let group = self.groups.last_mut().expect("an open group exists");
        group.boxes.end = self.boxes.len();
        let group_class = group.class;
        if let Some(written) = class
            && written != i32::from(group_class)
        {
            let message = format!(
                "a Clsn{written} box under a Clsn{group_class} declaration counts as Clsn{group_class}"
            );
            self.warn(index, line.code.0, message);
        }
    }

    fn interpolate(&mut self, index: usize) {
        let line = self.lines[index];
        let what_span = trim(self.bytes, line.code.0 + "interpolate".len()..line.code.1);
        let what = self.text(what_span);
        let kind = if what.eq_ignore_ascii_case(b"offset") {
            InterpolateKind::Offset
        } else if what.eq_ignore_ascii_case(b"blend") {
            InterpolateKind::Blend
        } else if what.eq_ignore_ascii_case(b"scale") {
            InterpolateKind::Scale
        } else if what.eq_ignore_ascii_case(b"angle") {
            InterpolateKind::Angle
        } else {
            self.warn(
                index,
                what_span.0,
                "Interpolate takes Offset, Blend, Scale or Angle; this line is ignored".into(),
            );
            return;
        };
        self.pending.interpolations.push((index, kind));
    }

    fn frame(&mut self, index: usize) {
        let line = self.lines[index];
        let scanned = scan_fields::<MAX_FRAME_FIELDS>(self.bytes, line.code_range());
        if scanned.count < 5 {
            self.error(
                index,
                line.code.0,
                format!(
                    "a frame line needs at least 5 fields (group, image, x, y, ticks); this one has {}",
                    scanned.count
                ),
            );
            return;
        }
        if let Some(at) = scanned.first_dropped {
            self.warn(index, at, "fields after the tenth are ignored".into());
        }
        let Some(values) = self.frame_values(index, &scanned, &scanned.numbers) else {
            return;
        };
        self.close_group();
        let pending = self.take_pending();
        let clsn = pending.clsn_start..self.groups.len();
        let action = self.current.as_mut().expect("inside an action");
        if !pending.loopstarts.is_empty() {
            action.loop_frame = action.frames.len();
        }
        action.frames.push(FrameSyntax {
            lead: pending.lead.unwrap_or(index),
            line: index,
            values,
            clsn,
            loopstarts: pending.loopstarts,
            interpolations: pending.interpolations,
        });
    }

    /// The values of a frame line's `fields`; `numbers` are those that are whole numbers.
    fn frame_values(
        &mut self,
        index: usize,
        fields: &[Field],
        numbers: &[Option<i64>],
    ) -> Option<FrameValues> {
        let text = |i: usize| &self.bytes[fields[i].value_range()];
        let whole = |i: usize| numbers[i].and_then(|n| i32::try_from(n).ok());
        let fx = |i: usize| numbers[i].map(fx_from_whole).or_else(|| parse_fx(text(i)));
        let mut values = FrameValues::default();
        let names = [
            "sprite group",
            "sprite image",
            "x offset",
            "y offset",
            "ticks",
        ];
        let mut bad = None;
        match (whole(0), whole(1)) {
            (Some(g), Some(i)) => (values.group, values.image) = (g, i),
            (None, _) => bad = Some(0),
            (_, None) => bad = Some(1),
        }
        if bad.is_none() {
            match (fx(2), fx(3)) {
                (Some(x), Some(y)) => (values.x, values.y) = (x, y),
                (None, _) => bad = Some(2),
                (_, None) => bad = Some(3),
            }
        }
        if bad.is_none() {
            match whole(4) {
                Some(t) => values.ticks = i64::from(t),
                None => bad = Some(4),
            }
        }
        if let Some(field) = bad {
            let message = format!(
                "the {} is not a whole number; the line is ignored",
                names[field]
            );
            let message = if field == 2 || field == 3 {
                message.replace("a whole number", "a number")
            } else {
                message
            };
            self.error(index, fields[field].value.0, message);
            return None;
        }
        if values.ticks < -1 {
            let at = fields[4].value.0;
            self.warn(
                index,
                at,
                "a negative duration other than -1 plays forever".into(),
            );
        }
        if let Some(flip) = fields.get(5) {
            let flip_text = &self.bytes[flip.value_range()];
            for &c in flip_text {
                match c.to_ascii_uppercase() {
                    b'H' => values.flip_h = true,
                    b'V' => values.flip_v = true,
                    _ => {}
                }
            }
            if flip_text
                .iter()
                .any(|c| !matches!(c.to_ascii_uppercase(), b'H' | b'V'))
            {
                self.warn(
                    index,
                    flip.value.0,
                    "the flip field takes only H and V".into(),
                );
            }
        }
        if let Some(blend) = fields.get(6) {
            let blend_text = &self.bytes[blend.value_range()];
            match parse_blend(blend_text) {
                Some((mode, clamped)) => {
                    values.blend = mode;
                    if clamped {
                        self.warn(
                            index,
                            blend.value.0,
                            "blend factors above 256 count as 256".into(),
                        );
                    }
                }
                None => self.warn(
                    index,
                    blend.value.0,
                    "unknown blend (A, A1, S or AS<n>D<m>); the frame is drawn normally".into(),
                ),
            }
        }
        let mut decimal = |i: usize, default: f64, what: &str| -> f64 {
            let Some(field) = fields.get(i) else {
                return default;
            };
            if field.is_empty() {
                return default;
            }
            match parse_decimal(&self.bytes[field.value_range()]) {
                Some(v) => v,
                None => {
                    let message = format!("the {what} is not a number; {default} is used");
                    self.warn(index, field.value.0, message);
                    default
                }
            }
        };
        values.scale_x = decimal(7, 1.0, "x scale");
        values.scale_y = decimal(8, 1.0, "y scale");
        values.angle = decimal(9, 0.0, "angle");
        Some(values)
    }
}

/// `begin` at the start of `text` (any case) followed by a blank or the end: the offset after it
/// and its blanks.
fn keyword(text: &[u8], word: &[u8]) -> Option<usize> {
    if !starts_with_ignore_case(text, word) {
        return None;
    }
    let rest = &text[word.len()..];
    let blanks = rest
        .iter()
        .take_while(|b| super::lexis::is_blank_byte(**b))
        .count();
    (blanks > 0 || rest.is_empty()).then_some(word.len() + blanks)
}

/// A coordinate: whole numbers (almost all of them) without a detour through `f64`.
fn parse_fx(text: &[u8]) -> Option<Fx> {
    match parse_int(text) {
        Some(whole) => Some(fx_from_whole(whole)),
        None => parse_decimal(text).map(Fx::from_f64),
    }
}

/// A whole number of pixels, clamped to what [`Fx`] holds.
fn fx_from_whole(whole: i64) -> Fx {
    let steps = whole.saturating_mul(i64::from(Fx::ONE));
    Fx(steps.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// A blend field; empty is normal. The flag says a factor was above 256 and was clamped.
pub fn parse_blend(text: &[u8]) -> Option<(BlendMode, bool)> {
    let is = |word: &[u8]| text.eq_ignore_ascii_case(word);
    if text.is_empty() {
        Some((BlendMode::Normal, false))
    } else if is(b"A") {
        Some((add(256, 256), false))
    } else if is(b"A1") {
        Some((add(256, 128), false))
    } else if is(b"S") {
        Some((BlendMode::Subtract, false))
    } else {
        if !starts_with_ignore_case(text, b"AS") {
            return None;
        }
        let rest = &text[2..];
        let d = rest.iter().position(|b| b.eq_ignore_ascii_case(&b'D'))?;
        let source = parse_int(&rest[..d]).filter(|v| *v >= 0)?;
        let destination = parse_int(&rest[d + 1..]).filter(|v| *v >= 0)?;
        let clamped = source > 256 || destination > 256;
        Some((
            add(source.min(256) as u16, destination.min(256) as u16),
            clamped,
        ))
    }
}

fn add(source: u16, destination: u16) -> BlendMode {
    BlendMode::Add {
        source,
        destination,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> AirSyntax {
        parse_air(text.as_bytes(), true)
    }

    #[test]
    fn frames_modifiers_and_boxes_attach_to_the_next_frame_line() {
        let air = parse(
            "[Begin Action 000]\nClsn2Default: 1\n Clsn2[0] = -1,2,3,-4\n0,0, 0,0, 5\nLoopstart\nInterpolate offset\nclsn1: 1\n clsn1[0]=1,1,2,2\n-1,-1, 3,4, -1, HV, AS300D20, .5,, 45\n",
        );
        assert!(air.diagnostics.len() == 1, "{:?}", air.diagnostics);
        assert!(air.diagnostics[0].message.contains("above 256"));
        let action = &air.actions[0];
        assert_eq!(action.number, 0);
        assert_eq!(action.loop_frame, 1);
        assert_eq!(action.frames.len(), 2);
        let first = &action.frames[0];
        assert_eq!((first.lead, first.line), (1, 3));
        let group = &air.clsn(first)[0];
        assert_eq!(group.class, 2);
        assert!(group.default);
        assert_eq!(air.boxes(group)[0].corners[3], Fx::from_int(-4));
        let second = &action.frames[1];
        assert_eq!(second.interpolations, vec![(5, InterpolateKind::Offset)]);
        assert_eq!(second.values.ticks, -1);
        assert!(second.values.flip_h && second.values.flip_v);
        assert_eq!(second.values.blend, add(256, 20));
        assert_eq!(second.values.scale_x, 0.5);
        assert_eq!(second.values.scale_y, 1.0);
        assert_eq!(second.values.angle, 45.0);
    }

    #[test]
    fn blend_spellings() {
        assert_eq!(parse_blend(b"a"), Some((add(256, 256), false)));
        assert_eq!(parse_blend(b"A1"), Some((add(256, 128), false)));
        assert_eq!(parse_blend(b"s"), Some((BlendMode::Subtract, false)));
        assert_eq!(parse_blend(b"as0d256"), Some((add(0, 256), false)));
        assert_eq!(parse_blend(b"AS"), None);
        assert_eq!(parse_blend(b"X"), None);
    }

    #[test]
    fn duplicates_other_sections_and_bad_lines_are_reported() {
        let air = parse(
            "[Begin Action 5]\n1,0, 0,0, 1\n[Info]\nname = x\n[begin action 5]\n1,0\n1,x,0,0,1\nClsn1: 2\n Clsn1[0] = 0,0,1,1\n0,0,0,0,0\nLoopstart\n",
        );
        assert_eq!(air.actions.len(), 2);
        assert!(air.actions[1].duplicate);
        let messages: Vec<String> = air
            .diagnostics
            .iter()
            .map(|d| format!("{:?} {}", d.location, d.message))
            .collect();
        let expected = [
            "line: 5, column: 15 } action 5 is already defined on line 1",
            "line: 6, column: 1 } a frame line needs at least 5 fields",
            "line: 7, column: 3 } the sprite image is not a whole number",
            "line: 8, column: 8 } Clsn1 declares 2 boxes but 1 follows",
            "line: 11, column: 1 } Loopstart after the last frame is ignored",
        ];
        assert_eq!(messages.len(), expected.len(), "{messages:#?}");
        for (m, e) in messages.iter().zip(expected) {
            assert!(m.contains(e), "{m} / {e}");
        }
        assert_eq!(air.actions[0].end, 2);
    }

    #[test]
    fn text_outside_actions_is_reported_once() {
        let air = parse("junk\nmore junk\n[Begin Action 1]\n0,0,0,0,1\n");
        assert_eq!(air.diagnostics.len(), 1, "{:?}", air.diagnostics);
        assert!(
            air.diagnostics[0]
                .message
                .contains("outside any [Begin Action]")
        );
        assert!(
            parse_air(b"junk\n[Begin Action 1]\n0,0,0,0,1\n", false)
                .diagnostics
                .is_empty()
        );
    }

    #[test]
    fn mislabelled_box_lines_count_as_the_declared_class() {
        let air = parse("[Begin Action 1]\nClsn1: 1\n Clsn2[0] = 66,-66,  9,-44\n0,0,0,0,1\n");
        let group = &air.clsn(&air.actions[0].frames[0])[0];
        assert_eq!(group.class, 1);
        assert_eq!(air.boxes(group).len(), 1);
        assert!(air.diagnostics[0].message.contains("counts as Clsn1"));
    }
}
