//! The document model to AIR text.
//!
//! With the bytes the document was read from (the baseline), the writer re-reads them to learn
//! which action and frame line each sequence and frame came from (ids are handed out in file
//! order), then copies every untouched action and frame byte for byte and rewrites only the
//! lines of what changed, in the file's own style (see [`super::air_style`]). Comments, other
//! sections of a `.def`, blank lines and unknown lines are never rewritten. Without a baseline
//! it writes a fresh text.
//!
//! Sequences that moved in the tree move their action blocks among the places actions held;
//! new sequences go after the last action.

use super::air_model::{SyntaxMap, add_to_model};
use super::air_plan::{
    FramePlace, FramePlan, PlannedBox, action_numbers, plan_frame, sequence_losses, set_losses,
};
use super::air_style::{
    Style, Template, box_line, declaration_line, frame_line, order_of, rect_of, template,
};
use super::air_syntax::{
    ActionSyntax, AirSyntax, BoxLine, ClsnGroup, FrameSyntax, InterpolateKind, parse_air,
};
use super::lexis::Line;
use crate::formats::Loss;
use crate::model::{AnimationSet, BoxScope, FrameId, ImageId, Interpolation, Sequence, SequenceId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// AIR text and what it could not hold.
pub struct AirOutput {
    /// The text.
    pub bytes: Vec<u8>,
    /// What was lost.
    pub losses: Vec<Loss>,
}

/// One sequence as it will be written.
struct ActionPlan<'a> {
    sequence: &'a Sequence,
    number: i32,
    frames: Vec<(FrameId, FramePlan)>,
    loop_index: usize,
}

/// Writes the sequences of `document` as AIR text, over `baseline` when given.
pub fn write_air(document: &AnimationSet, baseline: Option<&Arc<Vec<u8>>>) -> AirOutput {
    let mut losses = Vec::new();
    let plans = plan_document(document, &mut losses);
    let bytes = match baseline {
        Some(bytes) => Rewriter::new(bytes).write(&plans),
        None => fresh(&plans),
    };
    AirOutput { bytes, losses }
}

fn plan_document<'a>(document: &'a AnimationSet, losses: &mut Vec<Loss>) -> Vec<ActionPlan<'a>> {
    set_losses(document, losses);
    let numbers = action_numbers(document, losses);
    document
        .sequences()
        .into_iter()
        .zip(numbers)
        .map(|(sequence, number)| plan_sequence(document, sequence, number, losses))
        .collect()
}

fn plan_sequence<'a>(
    document: &AnimationSet,
    sequence: &'a Sequence,
    number: i32,
    losses: &mut Vec<Loss>,
) -> ActionPlan<'a> {
    sequence_losses(sequence, losses);
    let ids = sequence
        .directions
        .first()
        .map_or(&[][..], |d| &d.frames[..]);
    let mut frames = Vec::with_capacity(ids.len());
    for (index, id) in ids.iter().enumerate() {
        let Some(frame) = document.frame(*id) else {
            continue;
        };
        let at = FramePlace {
            set: document,
            sequence,
            index,
        };
        frames.push((*id, plan_frame(frame, &at, losses)));
    }
    let loop_index = match sequence.loop_point {
        Some(point) if point < frames.len() => point,
        Some(point) => {
            if !frames.is_empty() {
                losses.push(Loss::new(
                    crate::formats::Place::sequence(&sequence.name),
                    format!("the loop point {point}, past the last frame (AIR loops to frame 0)"),
                ));
            }
            0
        }
        None => {
            // AIR always loops: an action stops by holding its last frame forever (time -1),
            // which reads back as an action looping to frame 0, a loop it never reaches.
            if let Some((_, last)) = frames.last_mut() {
                let held = if last.values.ticks < 0 {
                    String::new()
                } else {
                    format!(" (its {} ticks written as -1)", last.values.ticks)
                };
                losses.push(Loss::new(
                    crate::formats::Place::sequence(&sequence.name),
                    format!(
                        "playing once: AIR actions always loop, so it holds its last frame forever{held} and reads back as looping to frame 0, a loop it never reaches"
                    ),
                ));
                last.values.ticks = -1;
            }
            0
        }
    };
    ActionPlan {
        sequence,
        number,
        frames,
        loop_index,
    }
}

/// A fresh AIR text.
fn fresh(plans: &[ActionPlan]) -> Vec<u8> {
    let style = Style::fresh();
    let mut out = Vec::new();
    for (index, plan) in plans.iter().enumerate() {
        if index > 0 {
            out.extend_from_slice(&style.eol);
        }
        if let Some(title) = &plan.sequence.title {
            push_line(&mut out, &title_comment(title), &style.eol);
        }
        push_line(
            &mut out,
            format!("[Begin Action {}]", plan.number).as_bytes(),
            &style.eol,
        );
        for (i, (_, frame)) in plan.frames.iter().enumerate() {
            new_frame(&mut out, &style, None, frame, i == plan.loop_index && i > 0);
        }
    }
    out
}

/// The comment line that names an action: `; Standing Animation`.
fn title_comment(title: &str) -> Vec<u8> {
    format!("; {title}").into_bytes()
}

/// Appends `text` as a line, starting a new line first if needed.
fn push_line(out: &mut Vec<u8>, text: &[u8], eol: &[u8]) {
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.extend_from_slice(eol);
    }
    out.extend_from_slice(text);
    out.extend_from_slice(eol);
}

/// A frame that has no line in the baseline, from a template line when there is one.
fn new_frame(
    out: &mut Vec<u8>,
    style: &Style,
    template: Option<&Template>,
    frame: &FramePlan,
    loopstart: bool,
) {
    if loopstart {
        push_line(out, &style.loopstart, &style.eol);
    }
    for class in [1u8, 2] {
        if let Some((scope, rects)) = &frame.boxes[usize::from(class - 1)] {
            group_lines(out, style, None, class, *scope, rects);
        }
    }
    for kind in interpolate_kinds(&frame.interpolation) {
        push_line(out, &interpolate_line(style, kind), &style.eol);
    }
    push_line(
        out,
        &frame_line(style, template, &frame.values, false),
        &style.eol,
    );
}

fn interpolate_kinds(flags: &Interpolation) -> Vec<InterpolateKind> {
    let mut kinds = Vec::new();
    if flags.offset {
        kinds.push(InterpolateKind::Offset);
    }
    if flags.blend {
        kinds.push(InterpolateKind::Blend);
    }
    if flags.scale {
        kinds.push(InterpolateKind::Scale);
    }
    if flags.angle {
        kinds.push(InterpolateKind::Angle);
    }
    kinds
}

fn has_kind(flags: &Interpolation, kind: InterpolateKind) -> bool {
    match kind {
        InterpolateKind::Offset => flags.offset,
        InterpolateKind::Blend => flags.blend,
        InterpolateKind::Scale => flags.scale,
        InterpolateKind::Angle => flags.angle,
    }
}

fn interpolate_line(style: &Style, kind: InterpolateKind) -> Vec<u8> {
    let word = match kind {
        InterpolateKind::Offset => "Offset",
        InterpolateKind::Blend => "Blend",
        InterpolateKind::Scale => "Scale",
        InterpolateKind::Angle => "Angle",
    };
    let mut line = style.interpolate.clone();
    line.push(b' ');
    line.extend_from_slice(word.as_bytes());
    line
}

/// A Clsn group: its declaration and box lines, from `template` (the group it replaces, in the
/// file's syntax) when there is one.
fn group_lines(
    out: &mut Vec<u8>,
    style: &Style,
    template: Option<(&[u8], &ClsnGroup, &AirSyntax)>,
    class: u8,
    scope: BoxScope,
    rects: &[PlannedBox],
) {
    let default = scope == BoxScope::FromHereOn;
    let declaration = match template {
        Some((bytes, group, syntax))
            if group.default == default
                && group.count.is_some_and(|(n, _)| n == rects.len() as i64) =>
        {
            let line = syntax.lines[group.line];
            bytes[line.start..line.end].to_vec()
        }
        Some((bytes, group, syntax)) => declaration_line(
            style,
            Some((bytes, group, &syntax.lines[group.line])),
            class,
            default,
            rects.len(),
        ),
        None => declaration_line(style, None, class, default, rects.len()),
    };
    push_line(out, &declaration, &style.eol);
    for (index, rect) in rects.iter().enumerate() {
        let text = match template {
            Some((bytes, group, syntax)) if !group.boxes.is_empty() => {
                let boxes = syntax.boxes(group);
                let own = boxes.get(index);
                let same_order = |b: &BoxLine| rect.corners.is_none_or(|o| o == order_of(b));
                match own {
                    Some(b) if rect_of(b) == rect.rect && same_order(b) => {
                        let line = syntax.lines[b.line];
                        bytes[line.start..line.end].to_vec()
                    }
                    _ => {
                        let b = own.unwrap_or_else(|| boxes.last().expect("not empty"));
                        let t = Some((bytes, b, &syntax.lines[b.line]));
                        box_line(style, t, class, index, rect, true, own.is_some())
                    }
                }
            }
            _ => box_line(style, None, class, index, rect, false, false),
        };
        push_line(out, &text, &style.eol);
    }
}

/// Rewrites a baseline text.
struct Rewriter<'b> {
    bytes: &'b Arc<Vec<u8>>,
    syntax: AirSyntax,
    /// The baseline read into a scratch set the way the readers read it.
    scratch: AnimationSet,
    map: SyntaxMap,
    style: Style,
}

impl<'b> Rewriter<'b> {
    fn new(bytes: &'b Arc<Vec<u8>>) -> Rewriter<'b> {
        let mut syntax = parse_air(bytes, false);
        let (scratch, map) = read_into_scratch(&mut syntax);
        let style = Style::of(bytes, &syntax);
        Rewriter {
            bytes,
            syntax,
            scratch,
            map,
            style,
        }
    }

    fn line(&self, index: usize) -> Line {
        self.syntax.lines[index]
    }

    /// Byte offset where line `index` starts (the end of the file past the last line).
    fn offset(&self, index: usize) -> usize {
        self.syntax
            .lines
            .get(index)
            .map_or(self.bytes.len(), |l| l.start)
    }

    /// One past the last line of an action that is not blank or a comment: comments after it
    /// introduce what follows and stay in place.
    fn body_end(&self, action: &ActionSyntax) -> usize {
        (action.header..action.end)
            .rev()
            .find(|&i| !self.line(i).is_blank())
            .map_or(action.header + 1, |i| i + 1)
    }

    fn write(&self, plans: &[ActionPlan]) -> Vec<u8> {
        let bytes = self.bytes.as_slice();
        let mut out = Vec::with_capacity(bytes.len() + 256);
        let action_of: HashMap<SequenceId, usize> = self
            .map
            .sequences
            .iter()
            .enumerate()
            .map(|(a, id)| (*id, a))
            .collect();
        let (existing, new): (Vec<&ActionPlan>, Vec<&ActionPlan>) = plans
            .iter()
            .partition(|p| action_of.contains_key(&p.sequence.id));
        let kept: HashSet<SequenceId> = existing.iter().map(|p| p.sequence.id).collect();
        let mut queue = existing.into_iter();
        let mut position = 0;
        let last_action = self.syntax.actions.len().checked_sub(1);
        for (a, action) in self.syntax.actions.iter().enumerate() {
            let block_end = self.offset(self.body_end(action));
            let plan = if kept.contains(&self.map.sequences[a]) {
                queue.next()
            } else {
                None
            };
            self.gap_before(&mut out, position, a, plan);
            if let Some(plan) = plan {
                self.action(&mut out, plan, action_of[&plan.sequence.id]);
            }
            position = block_end;
            if Some(a) == last_action {
                self.append_new(&mut out, &new);
            }
        }
        out.extend_from_slice(&bytes[position..]);
        if last_action.is_none() {
            self.append_new(&mut out, &new);
        }
        out
    }

    /// Copies the lines between the previous action's body (from `position`) and the header of
    /// action `a`, whose place `plan` takes (`None`: the action was deleted). The comment line
    /// naming the action there says the title of what is written in its place: kept as it is
    /// when that title did not change, rewritten (only the title's text) when it did, dropped
    /// with a deleted action, and added above the header when there was none.
    fn gap_before(&self, out: &mut Vec<u8>, position: usize, a: usize, plan: Option<&ActionPlan>) {
        let bytes = self.bytes.as_slice();
        let action = &self.syntax.actions[a];
        let header_start = self.offset(action.header);
        let wanted = plan.and_then(|p| p.sequence.title.as_deref());
        let Some(line) = &action.title else {
            out.extend_from_slice(&bytes[position..header_start]);
            if let Some(title) = wanted {
                push_line(out, &title_comment(title), &self.style.eol);
            }
            return;
        };
        let comment = self.line(line.line);
        out.extend_from_slice(&bytes[position..comment.start]);
        match wanted {
            Some(title) if plan.is_some() && title == line.text => {
                out.extend_from_slice(&bytes[comment.start..comment.next]);
            }
            Some(title) => {
                out.extend_from_slice(&bytes[comment.start..line.span.0]);
                out.extend_from_slice(title.as_bytes());
                out.extend_from_slice(&bytes[line.span.1..comment.next]);
            }
            None => {}
        }
        out.extend_from_slice(&bytes[comment.next..header_start]);
    }

    fn append_new(&self, out: &mut Vec<u8>, plans: &[&ActionPlan]) {
        for plan in plans {
            if !out.is_empty() {
                push_line(out, b"", &self.style.eol);
            }
            if let Some(title) = &plan.sequence.title {
                push_line(out, &title_comment(title), &self.style.eol);
            }
            let header = format!("[Begin Action {}]", plan.number);
            push_line(out, header.as_bytes(), &self.style.eol);
            for (i, (id, frame)) in plan.frames.iter().enumerate() {
                let loopstart = i == plan.loop_index && i > 0;
                if !self.reused_frame(out, *id, frame, loopstart) {
                    new_frame(out, &self.style, None, frame, loopstart);
                }
            }
        }
    }

    /// Copies the lines of a frame the baseline has in another place (a frame shared with
    /// another action) when it still says the same: its Clsn groups, Interpolate lines and
    /// frame line, without comments or Loopstart. False when there is no such frame.
    fn reused_frame(
        &self,
        out: &mut Vec<u8>,
        id: FrameId,
        plan: &FramePlan,
        loopstart: bool,
    ) -> bool {
        let Some((a, j)) = self
            .map
            .frames
            .iter()
            .enumerate()
            .find_map(|(a, ids)| ids.iter().position(|f| *f == id).map(|j| (a, j)))
        else {
            return false;
        };
        if self.baseline_plans(a)[j] != *plan {
            return false;
        }
        if loopstart {
            push_line(out, &self.style.loopstart, &self.style.eol);
        }
        let syntax = &self.syntax.actions[a].frames[j];
        for index in syntax.lead..=syntax.line {
            if !self.line(index).is_blank() && !syntax.loopstarts.contains(&index) {
                self.copy_line(out, index);
            }
        }
        true
    }

    /// The plan of each frame of action `a` as the baseline says it.
    fn baseline_plans(&self, a: usize) -> Vec<FramePlan> {
        let sequence = self
            .scratch
            .sequence(self.map.sequences[a])
            .expect("the scratch set holds every action");
        let mut ignored = Vec::new();
        self.map.frames[a]
            .iter()
            .enumerate()
            .map(|(index, id)| {
                let at = FramePlace {
                    set: &self.scratch,
                    sequence,
                    index,
                };
                plan_frame(&self.scratch.frames[id], &at, &mut ignored)
            })
            .collect()
    }

    /// Writes `plan` over the block of action `a`.
    fn action(&self, out: &mut Vec<u8>, plan: &ActionPlan, a: usize) {
        let bytes = self.bytes.as_slice();
        let action = &self.syntax.actions[a];
        let originals = self.baseline_plans(a);
        let original_ids = &self.map.frames[a];
        let same_frames = plan.frames.len() == original_ids.len()
            && plan
                .frames
                .iter()
                .zip(original_ids.iter().zip(&originals))
                .all(|((id, p), (oid, op))| id == oid && p == op);
        let block_start = self.offset(action.header);
        let block_end = self.offset(self.body_end(action));
        if same_frames && plan.number == action.number && plan.loop_index == action.loop_frame {
            out.extend_from_slice(&bytes[block_start..block_end]);
            return;
        }
        // The header, with a new number if it changed.
        let header = self.line(action.header);
        if plan.number == action.number {
            out.extend_from_slice(&bytes[header.start..header.next]);
        } else {
            out.extend_from_slice(&bytes[header.start..action.number_span.0]);
            out.extend_from_slice(plan.number.to_string().as_bytes());
            out.extend_from_slice(&bytes[action.number_span.1..header.next]);
        }
        let original_loop = original_ids.get(action.loop_frame);
        let planned_loop = plan.frames.get(plan.loop_index).map(|(id, _)| id);
        // The Loopstart lines stay where they are when they still name the same frame. An
        // action without one loops to its first frame: if that frame is no longer first (a
        // frame was put before it), a Loopstart must be written.
        let had_loopstart = action.frames.iter().any(|f| !f.loopstarts.is_empty());
        let keep_loopstarts =
            original_loop == planned_loop && (had_loopstart || plan.loop_index == 0);
        let index_of: HashMap<FrameId, usize> = original_ids
            .iter()
            .enumerate()
            .map(|(i, id)| (*id, i))
            .collect();
        let mut used = HashSet::new();
        let mut last_template: Option<Template> = None;
        for (i, (id, frame)) in plan.frames.iter().enumerate() {
            let want_loopstart = !keep_loopstarts && i == plan.loop_index && i > 0;
            match index_of.get(id).filter(|j| used.insert(**j)) {
                Some(&j) => {
                    let syntax = &action.frames[j];
                    self.frame(
                        out,
                        syntax,
                        &originals[j],
                        frame,
                        keep_loopstarts,
                        want_loopstart,
                    );
                    last_template = Some(template(self.bytes, &self.syntax.lines, syntax));
                }
                None => {
                    let loopstart = i == plan.loop_index && i > 0 && !keep_loopstarts;
                    if !self.reused_frame(out, *id, frame, loopstart) {
                        let template = last_template.as_ref().or(self.style.frame.as_ref());
                        new_frame(out, &self.style, template, frame, loopstart);
                    }
                }
            }
        }
        let tail_start = self.offset(action.tail().min(self.body_end(action)));
        if tail_start < block_end {
            if !out.ends_with(b"\n") && !out.is_empty() {
                out.extend_from_slice(&self.style.eol);
            }
            out.extend_from_slice(&bytes[tail_start..block_end]);
        }
    }

    /// Writes one frame that has lines in the baseline.
    fn frame(
        &self,
        out: &mut Vec<u8>,
        syntax: &FrameSyntax,
        original: &FramePlan,
        plan: &FramePlan,
        keep_loopstarts: bool,
        want_loopstart: bool,
    ) {
        let bytes = self.bytes.as_slice();
        let loopstarts_as_before = keep_loopstarts || syntax.loopstarts.is_empty();
        if original == plan && loopstarts_as_before && !want_loopstart {
            let start = self.offset(syntax.lead);
            let end = self.line(syntax.line).next;
            if !out.is_empty() && !out.ends_with(b"\n") {
                out.extend_from_slice(&self.style.eol);
            }
            out.extend_from_slice(&bytes[start..end]);
            return;
        }
        // The group that counts for each class (the last one declared) and whether it changed.
        let counted: [Option<&ClsnGroup>; 2] = [1u8, 2].map(|class| {
            self.syntax
                .clsn(syntax)
                .iter()
                .rev()
                .find(|g| g.class == class)
        });
        let changed: [bool; 2] = [0, 1].map(|c| original.boxes[c] != plan.boxes[c]);
        let mut skipped: HashSet<usize> = HashSet::new();
        for c in 0..2 {
            if changed[c]
                && let Some(group) = counted[c]
            {
                skipped.extend(self.syntax.boxes(group).iter().map(|b| b.line));
            }
        }
        let mut loopstart_pending = want_loopstart;
        let mut groups_pending = true;
        for index in syntax.lead..=syntax.line {
            let line = self.line(index);
            if loopstart_pending && !line.is_blank() {
                push_line(out, &self.style.loopstart, &self.style.eol);
                loopstart_pending = false;
            }
            if skipped.contains(&index) {
                continue;
            }
            if syntax.loopstarts.contains(&index) {
                if keep_loopstarts {
                    self.copy_line(out, index);
                }
                continue;
            }
            if let Some((c, group)) = (0..2).find_map(|c| {
                counted[c]
                    .filter(|g| g.line == index && changed[c])
                    .map(|g| (c, g))
            }) {
                if let Some((scope, rects)) = &plan.boxes[c] {
                    let template = Some((bytes, group, &self.syntax));
                    group_lines(out, &self.style, template, group.class, *scope, rects);
                }
                continue;
            }
            let interpolation = syntax.interpolations.iter().find(|(l, _)| *l == index);
            if groups_pending && (interpolation.is_some() || index == syntax.line) {
                self.new_groups(out, &counted, plan);
                groups_pending = false;
            }
            if let Some(&(_, kind)) = interpolation {
                if has_kind(&plan.interpolation, kind) {
                    self.copy_line(out, index);
                }
                continue;
            }
            if index == syntax.line {
                for kind in interpolate_kinds(&plan.interpolation) {
                    if !has_kind(&original.interpolation, kind) {
                        push_line(out, &interpolate_line(&self.style, kind), &self.style.eol);
                    }
                }
                if original.values == plan.values {
                    self.copy_line(out, index);
                } else {
                    let template = template(self.bytes, &self.syntax.lines, syntax);
                    let mut values = plan.values;
                    if original.values.ticks == values.ticks {
                        values.ticks = template.values.ticks;
                    }
                    let text = frame_line(&self.style, Some(&template), &values, true);
                    if !out.is_empty() && !out.ends_with(b"\n") {
                        out.extend_from_slice(&self.style.eol);
                    }
                    out.extend_from_slice(&text);
                    out.extend_from_slice(&bytes[line.end..line.next]);
                }
                continue;
            }
            self.copy_line(out, index);
        }
    }

    /// Groups for classes the frame now declares and the baseline did not.
    fn new_groups(&self, out: &mut Vec<u8>, counted: &[Option<&ClsnGroup>; 2], plan: &FramePlan) {
        for (class, (group, boxes)) in (1u8..).zip(counted.iter().zip(&plan.boxes)) {
            if group.is_none()
                && let Some((scope, rects)) = boxes
            {
                group_lines(out, &self.style, None, class, *scope, rects);
            }
        }
    }

    fn copy_line(&self, out: &mut Vec<u8>, index: usize) {
        let line = self.line(index);
        if !out.is_empty() && !out.ends_with(b"\n") {
            out.extend_from_slice(&self.style.eol);
        }
        out.extend_from_slice(&self.bytes[line.start..line.next]);
    }
}

/// Reads parsed actions into a fresh set prepared the way the readers prepare theirs (the SFF
/// archive first), so ids match those of the document read from the same bytes.
pub fn read_into_scratch(syntax: &mut AirSyntax) -> (AnimationSet, SyntaxMap) {
    let mut set = AnimationSet::new();
    let archive = ImageId(set.alloc_id());
    let map = add_to_model(syntax, &mut set, archive);
    (set, map)
}
