//! How a file writes things, so new and edited lines look like their neighbours: line
//! endings, the spelling of keywords, the spacing of fields and the width of padded numbers.

use super::air_plan::{PlannedBox, Rect};
use super::air_syntax::{
    AirSyntax, BoxLine, ClsnGroup, FrameSyntax, FrameValues, MAX_FRAME_FIELDS,
};
use super::lexis::{Field, Line, ScannedFields};
use crate::model::{BlendMode, CornerOrder, Fx};

/// Templates taken from an existing file (or the defaults of a fresh one).
#[derive(Clone, Debug)]
pub struct Style {
    /// `\n` or `\r\n`.
    pub eol: Vec<u8>,
    /// How `Loopstart` is spelled.
    pub loopstart: Vec<u8>,
    /// How `Interpolate` is spelled (without what follows).
    pub interpolate: Vec<u8>,
    /// A frame line to copy spacing from.
    pub frame: Option<Template>,
    /// A declaration line (`Clsn2Default: 2`).
    pub declaration: Option<(std::sync::Arc<Vec<u8>>, ClsnGroup, Line)>,
    /// A box line (` Clsn2[0] = -13,  0, 16,-79`).
    pub box_line: Option<(std::sync::Arc<Vec<u8>>, BoxLine, Line)>,
    /// Box coordinates are right-aligned in columns (some field has two or more blanks
    /// before it), so edited numbers keep the column.
    pub aligned_boxes: bool,
    /// The corner order most of the file's box lines use, for boxes made in Sprat.
    pub corners: CornerOrder,
}

/// A frame line to render new values into.
#[derive(Clone, Debug)]
pub struct Template {
    /// The file's bytes.
    pub bytes: std::sync::Arc<Vec<u8>>,
    /// The line.
    pub line: Line,
    /// Its fields.
    pub fields: ScannedFields<MAX_FRAME_FIELDS>,
    /// Its values.
    pub values: FrameValues,
}

impl Style {
    /// The style of a fresh file.
    pub fn fresh() -> Style {
        Style {
            eol: b"\n".to_vec(),
            loopstart: b"Loopstart".to_vec(),
            interpolate: b"Interpolate".to_vec(),
            frame: None,
            declaration: None,
            box_line: None,
            aligned_boxes: false,
            corners: CornerOrder::default(),
        }
    }

    /// The style of an existing file.
    pub fn of(bytes: &std::sync::Arc<Vec<u8>>, syntax: &AirSyntax) -> Style {
        let mut style = Style::fresh();
        if let Some(first) = syntax.lines.first()
            && first.end + 2 == first.next
            && bytes.get(first.end) == Some(&b'\r')
        {
            style.eol = b"\r\n".to_vec();
        }
        let frames = syntax.actions.iter().flat_map(|a| a.frames.iter());
        // How many box lines use each corner order: [right first][bottom first].
        let mut orders = [[0usize; 2]; 2];
        for frame in frames {
            if style.frame.is_none() {
                style.frame = Some(template(bytes, &syntax.lines, frame));
            }
            if let Some(&line) = frame.loopstarts.first() {
                let l = syntax.lines[line];
                style.loopstart = bytes[l.code_range()].to_vec();
            }
            if let Some(&(line, _)) = frame.interpolations.first() {
                let l = syntax.lines[line];
                style.interpolate = bytes[l.code.0..l.code.0 + "interpolate".len()].to_vec();
            }
            for group in syntax.clsn(frame) {
                let boxes = syntax.boxes(group);
                if style.declaration.is_none() && group.count.is_some() {
                    style.declaration =
                        Some((bytes.clone(), group.clone(), syntax.lines[group.line]));
                }
                if style.box_line.is_none()
                    && let Some(b) = boxes.first()
                {
                    style.box_line = Some((bytes.clone(), b.clone(), syntax.lines[b.line]));
                }
                style.aligned_boxes |= boxes.iter().any(|b| {
                    b.fields(bytes)
                        .iter()
                        .any(|f| bytes[f.raw.0..f.value.0].starts_with(b"  "))
                });
                for b in boxes {
                    let order = order_of(b);
                    orders[usize::from(order.right_first)][usize::from(order.bottom_first)] += 1;
                }
            }
        }
        // The most used order; on a tie the usual one (left, top first) comes first.
        let candidates = [(false, false), (false, true), (true, false), (true, true)];
        let (right_first, bottom_first) = candidates
            .into_iter()
            .rev()
            .max_by_key(|&(r, b)| orders[usize::from(r)][usize::from(b)])
            .unwrap_or_default();
        style.corners = CornerOrder {
            right_first,
            bottom_first,
        };
        style
    }
}

/// A frame's line as a template.
pub fn template(bytes: &std::sync::Arc<Vec<u8>>, lines: &[Line], frame: &FrameSyntax) -> Template {
    Template {
        bytes: bytes.clone(),
        line: lines[frame.line],
        fields: frame.fields(bytes, lines),
        values: frame.values,
    }
}

/// Text of a number of pixels: whole numbers without a dot, others as short decimals.
pub fn fx_text(value: Fx) -> String {
    value.to_string()
}

/// Text of a scale or angle; keeps a decimal point when the file wrote one.
pub fn decimal_text(value: f64, keep_point: bool) -> String {
    let mut text = format!("{value}");
    if keep_point && !text.contains('.') && !text.contains('e') {
        text.push_str(".0");
    }
    text
}

/// The flip field.
pub fn flip_text(h: bool, v: bool) -> &'static str {
    match (h, v) {
        (false, false) => "",
        (true, false) => "H",
        (false, true) => "V",
        (true, true) => "HV",
    }
}

/// The blend field; `long_form` writes `AS256D256` rather than `A`.
pub fn blend_text(blend: BlendMode, long_form: bool) -> String {
    match blend {
        BlendMode::Normal => String::new(),
        BlendMode::Subtract => "S".into(),
        BlendMode::Add {
            source: 256,
            destination: 256,
        } if !long_form => "A".into(),
        BlendMode::Add {
            source: 256,
            destination: 128,
        } if !long_form => "A1".into(),
        BlendMode::Add {
            source,
            destination,
        } => format!("AS{source}D{destination}"),
    }
}

/// The number of fields `values` needs: 5, or up to the last non-default optional field.
fn fields_needed(values: &FrameValues) -> usize {
    if values.angle != 0.0 {
        10
    } else if values.scale_y != 1.0 {
        9
    } else if values.scale_x != 1.0 {
        8
    } else if values.blend != BlendMode::Normal {
        7
    } else if values.flip_h || values.flip_v {
        6
    } else {
        5
    }
}

fn field_equal(a: &FrameValues, b: &FrameValues, index: usize) -> bool {
    match index {
        0 => a.group == b.group,
        1 => a.image == b.image,
        2 => a.x == b.x,
        3 => a.y == b.y,
        4 => a.ticks == b.ticks,
        5 => (a.flip_h, a.flip_v) == (b.flip_h, b.flip_v),
        6 => a.blend == b.blend,
        7 => a.scale_x == b.scale_x,
        8 => a.scale_y == b.scale_y,
        9 => a.angle == b.angle,
        _ => true,
    }
}

fn field_text(values: &FrameValues, index: usize, template: Option<&[u8]>) -> String {
    let had_point = template.is_some_and(|t| t.contains(&b'.'));
    match index {
        0 => values.group.to_string(),
        1 => values.image.to_string(),
        2 => fx_text(values.x),
        3 => fx_text(values.y),
        4 => values.ticks.to_string(),
        5 => flip_text(values.flip_h, values.flip_v).into(),
        6 => {
            let long = template.is_some_and(|t| t.len() > 2 && t[..2].eq_ignore_ascii_case(b"AS"));
            blend_text(values.blend, long)
        }
        7 => decimal_text(values.scale_x, had_point),
        8 => decimal_text(values.scale_y, had_point),
        9 => decimal_text(values.angle, had_point),
        _ => String::new(),
    }
}

/// `new` in place of a field that held `old_len` bytes after `lead` blanks. In a file that
/// aligns numbers in columns (`align`), the number stays right-aligned where it fits; otherwise
/// the blanks before it stay as they were.
fn padded(lead: &[u8], old_len: usize, new: &str, align: bool) -> Vec<u8> {
    let mut out = if align && lead.iter().all(|&b| b == b' ') {
        vec![b' '; (lead.len() + old_len).saturating_sub(new.len())]
    } else {
        lead.to_vec()
    };
    out.extend_from_slice(new.as_bytes());
    out
}

/// Re-renders `fields` of a template line with new texts (`None` keeps a field as written),
/// appending fields past the template's with the spacing of its last field.
fn render_fields(bytes: &[u8], fields: &[Field], texts: &[Option<String>], align: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let last_lead = fields
        .last()
        .map_or(&b" "[..], |f| &bytes[f.raw.0..f.value.0]);
    let last_lead = if last_lead.is_empty() {
        &b""[..]
    } else {
        last_lead
    };
    for (index, text) in texts.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        match (fields.get(index), text) {
            (Some(field), None) => out.extend_from_slice(&bytes[field.raw.0..field.raw.1]),
            (Some(field), Some(text)) => {
                let lead = &bytes[field.raw.0..field.value.0];
                let old_len = field.value.1 - field.value.0;
                out.extend_from_slice(&padded(lead, old_len, text, align));
                out.extend_from_slice(&bytes[field.value.1..field.raw.1]);
            }
            (None, text) => {
                let text = text.as_deref().unwrap_or("");
                if !text.is_empty() || index + 1 < texts.len() {
                    out.extend_from_slice(last_lead);
                }
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
    out
}

/// A frame line (without line ending) for `values`, in the template's spacing when there is
/// one; fields equal to the template's keep their text. `own_line` says the template is the
/// line being rewritten, whose comment stays; a neighbour's comment is not copied.
pub fn frame_line(
    style: &Style,
    template: Option<&Template>,
    values: &FrameValues,
    own_line: bool,
) -> Vec<u8> {
    let Some(t) = template.or(style.frame.as_ref()) else {
        return fresh_frame_line(values);
    };
    let bytes = t.bytes.as_slice();
    // Keep optional fields the template wrote and that still say the same thing.
    let kept = (5..t.fields.len().min(MAX_FRAME_FIELDS))
        .filter(|&i| !t.fields[i].is_empty() && field_equal(&t.values, values, i))
        .map(|i| i + 1)
        .max()
        .unwrap_or(5);
    let count = fields_needed(values).max(kept);
    let texts: Vec<Option<String>> = (0..count)
        .map(|i| {
            let in_template = i < t.fields.len();
            if in_template && field_equal(&t.values, values, i) && (i < MAX_FRAME_FIELDS) {
                None
            } else {
                let old = t.fields.get(i).map(|f| &bytes[f.value_range()]);
                Some(field_text(values, i, old))
            }
        })
        .collect();
    let mut out = bytes[t.line.start..t.line.code.0].to_vec();
    out.extend(render_fields(bytes, &t.fields, &texts, false));
    if own_line {
        out.extend_from_slice(&bytes[t.line.code.1..t.line.end]);
    }
    out
}

fn fresh_frame_line(values: &FrameValues) -> Vec<u8> {
    let count = fields_needed(values);
    let mut text = format!(
        "{},{}, {},{}, {}",
        values.group,
        values.image,
        fx_text(values.x),
        fx_text(values.y),
        values.ticks
    );
    for i in 5..count {
        text.push_str(", ");
        text.push_str(&field_text(values, i, None));
    }
    text.into_bytes()
}

/// The corners of `rect` (left, top, width, height) written in `order`: `x1, y1, x2, y2`.
fn corners(rect: &Rect, order: CornerOrder) -> [Fx; 4] {
    let [x, y, width, height] = *rect;
    let (mut left, mut right, mut top, mut bottom) = (x, x + width, y, y + height);
    if order.right_first {
        std::mem::swap(&mut left, &mut right);
    }
    if order.bottom_first {
        std::mem::swap(&mut top, &mut bottom);
    }
    [left, top, right, bottom]
}

/// The order a box line wrote its corners in.
pub fn order_of(line: &BoxLine) -> CornerOrder {
    let [x1, y1, x2, y2] = line.corners;
    CornerOrder::of(x1, y1, x2, y2)
}

/// The box a line describes, normalised.
pub fn rect_of(line: &BoxLine) -> Rect {
    let [l, t, r, b] = line.corners;
    let (x0, x1) = if l <= r { (l, r) } else { (r, l) };
    let (y0, y1) = if t <= b { (t, b) } else { (b, t) };
    [x0, y0, x1 - x0, y1 - y0]
}

/// A box line (without ending) for `planned` as box `index` of class `class`, from
/// `template` (a line of this group or any box line of the file) for its spacing. The corners
/// come in the box's own order, or the order most of the file uses for a box made in Sprat.
/// `same_line` keeps the template's comment (it is the line being rewritten).
pub fn box_line(
    style: &Style,
    template: Option<(&[u8], &BoxLine, &Line)>,
    class: u8,
    index: usize,
    planned: &PlannedBox,
    same_group: bool,
    same_line: bool,
) -> Vec<u8> {
    let (rect, order) = (&planned.rect, planned.corners.unwrap_or(style.corners));
    let template = template.or(style
        .box_line
        .as_ref()
        .map(|(b, l, line)| (b.as_slice(), l, line)));
    let Some((bytes, t, line)) = template else {
        let [l, tp, r, b] = corners(rect, order);
        return format!(
            " Clsn{class}[{index}] = {}, {}, {}, {}",
            fx_text(l),
            fx_text(tp),
            fx_text(r),
            fx_text(b)
        )
        .into_bytes();
    };
    let new_corners = corners(rect, order);
    let texts: Vec<Option<String>> = (0..4)
        .map(|i| (t.corners[i] != new_corners[i]).then(|| fx_text(new_corners[i])))
        .collect();
    // The part before the first field: `Clsn2[0] =`, with the class and index brought up to date.
    let fields = t.fields(bytes);
    let prefix_end = fields[0].raw.0;
    let mut prefix = bytes[line.start..prefix_end].to_vec();
    if let Some((start, end)) = t.index {
        let written = super::lexis::parse_int(&bytes[start..end]);
        if written != Some(index as i64) {
            let rel = (start - line.start, end - line.start);
            prefix.splice(rel.0..rel.1, index.to_string().bytes());
        }
    }
    if !same_group {
        let clsn = line.code.0 - line.start + 4;
        if prefix.get(clsn).is_some_and(u8::is_ascii_digit) {
            prefix[clsn] = b'0' + class;
        }
    }
    let mut out = prefix;
    out.extend(render_fields(bytes, &fields, &texts, style.aligned_boxes));
    if same_line {
        out.extend_from_slice(&bytes[fields[3].raw.1..line.end]);
    }
    out
}

/// A declaration line (without ending) for `count` boxes of `class`, `default` or not.
pub fn declaration_line(
    style: &Style,
    template: Option<(&[u8], &ClsnGroup, &Line)>,
    class: u8,
    default: bool,
    count: usize,
) -> Vec<u8> {
    let template = template.or(style
        .declaration
        .as_ref()
        .map(|(b, g, line)| (b.as_slice(), g, line)));
    let Some((bytes, group, line)) = template else {
        let default = if default { "Default" } else { "" };
        return format!("Clsn{class}{default}: {count}").into_bytes();
    };
    let keyword = &bytes[group.keyword.0..group.keyword.1];
    let mut new_keyword = keyword.to_vec();
    if group.class != class && new_keyword.get(4).is_some_and(u8::is_ascii_digit) {
        new_keyword[4] = b'0' + class;
    }
    if group.default != default {
        let clsn_end = 4 + new_keyword[4..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        new_keyword.truncate(clsn_end);
        if default {
            let word: &[u8] = if keyword.iter().all(|b| !b.is_ascii_lowercase()) {
                b"DEFAULT"
            } else if keyword.iter().all(|b| !b.is_ascii_uppercase()) {
                b"default"
            } else {
                b"Default"
            };
            new_keyword.extend_from_slice(word);
        }
    }
    let mut out = bytes[line.start..group.keyword.0].to_vec();
    out.extend_from_slice(&new_keyword);
    match group.count {
        Some((_, (start, end))) => {
            out.extend_from_slice(&bytes[group.keyword.1..start]);
            out.extend_from_slice(count.to_string().as_bytes());
            out.extend_from_slice(&bytes[end..line.end]);
        }
        None => {
            out.extend_from_slice(format!(": {count}").as_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::mugen::air_syntax::parse_air;
    use std::sync::Arc;

    fn style_of(text: &str) -> (Style, AirSyntax) {
        let bytes = Arc::new(text.as_bytes().to_vec());
        let syntax = parse_air(&bytes, true);
        (Style::of(&bytes, &syntax), syntax)
    }

    #[test]
    fn frame_lines_keep_the_spacing_and_the_untouched_fields() {
        let (style, _) = style_of("[Begin Action 0]\n 0,1,  0,0, 10 ; c\n");
        let mut values = style.frame.as_ref().unwrap().values;
        values.ticks = 7;
        values.flip_h = true;
        let own = style.frame.clone();
        let line = frame_line(&style, own.as_ref(), &values, true);
        assert_eq!(String::from_utf8(line).unwrap(), " 0,1,  0,0, 7, H ; c");
        values.blend = BlendMode::Add {
            source: 256,
            destination: 128,
        };
        values.flip_h = false;
        let line = frame_line(&style, None, &values, false);
        assert_eq!(String::from_utf8(line).unwrap(), " 0,1,  0,0, 7, , A1");
    }

    #[test]
    fn padded_numbers_keep_their_column() {
        assert_eq!(padded(b"  ", 1, "-5", true), b" -5");
        assert_eq!(padded(b" ", 2, "-100", true), b"-100");
        assert_eq!(padded(b"", 3, "-1", true), b" -1");
        assert_eq!(padded(b"\t", 1, "22", true), b"\t22");
        assert_eq!(padded(b" ", 2, "120", false), b" 120");
    }

    #[test]
    fn box_lines_keep_orientation_and_renumber() {
        let (style, syntax) =
            style_of("[Begin Action 0]\nClsn2Default: 1\n Clsn2[0] = -13,  0, 16,-79\n0,0,0,0,1\n");
        let group = &syntax.clsn(&syntax.actions[0].frames[0])[0];
        let bytes = style.box_line.as_ref().unwrap().0.clone();
        let t = (&bytes[..], &syntax.boxes(group)[0], &syntax.lines[2]);
        let rect = [
            Fx::from_int(-13),
            Fx::from_int(-80),
            Fx::from_int(29),
            Fx::from_int(80),
        ];
        let planned = PlannedBox {
            rect,
            corners: None,
        };
        let line = box_line(&style, Some(t), 2, 0, &planned, true, true);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            " Clsn2[0] = -13,  0, 16,-80"
        );
        let line = box_line(&style, None, 1, 3, &planned, false, false);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            " Clsn1[3] = -13,  0, 16,-80"
        );
        let decl = declaration_line(&style, None, 1, false, 4);
        assert_eq!(String::from_utf8(decl).unwrap(), "Clsn1: 4");
    }
}
