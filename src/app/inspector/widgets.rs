//! The inspector's editing widgets: each shows a field's value and says when the user changed
//! it, and whether that change starts a new undo step. Fields the format cannot hold are shown
//! disabled with the reason as their hover text.

use crate::edit::Command;
use crate::model::Fx;

/// A section of the inspector: a header, open at first, over a grid of its rows (see
/// [`fields_grid`]; `grid` names the grid across passes).
pub fn section(ui: &mut egui::Ui, title: &str, grid: &str, rows: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(title)
        .default_open(true)
        .show(ui, |ui| fields_grid(ui, grid, rows));
}

/// The striped two-column grid of a section's rows (a label, then its field), `id` naming
/// it across passes.
pub fn fields_grid(ui: &mut egui::Ui, id: &str, rows: impl FnOnce(&mut egui::Ui)) {
    egui::Grid::new(id)
        .num_columns(2)
        .striped(true)
        .show(ui, rows);
}

/// An edit asked for in the inspector, applied after painting.
pub struct Edit {
    /// The change.
    pub command: Box<dyn Command>,
    /// True when the change starts a new undo step (a new drag, a click or a typed value).
    pub new_step: bool,
}

/// Text typed into a field that has not been applied yet (no Enter, focus still there), as the
/// command that would apply it.
pub struct Draft {
    /// The text row it belongs to.
    pub id: egui::Id,
    /// Applies the typed text.
    pub command: Box<dyn Command>,
}

/// What a text row says this pass: text to apply now, or text still being typed.
pub struct TextRow {
    /// The row, across passes.
    pub id: egui::Id,
    /// Enter was pressed or the field was left with changed text.
    pub committed: Option<String>,
    /// The field has focus and its text differs from the document's.
    pub draft: Option<String>,
}

/// The edits one inspector pass asks for.
#[derive(Default)]
pub struct Edits {
    /// The changes, in order.
    pub edits: Vec<Edit>,
    /// The text being typed this pass, if any.
    pub draft: Option<Draft>,
    /// The text rows shown this pass, whatever their state.
    pub shown: Vec<egui::Id>,
}

impl Edits {
    /// Asks for `command`; `response` decides whether it starts an undo step.
    pub fn push(&mut self, command: impl Command + 'static, response: &egui::Response) {
        self.edits.push(Edit {
            command: Box::new(command),
            new_step: starts_step(response),
        });
    }

    /// Asks for `command` from a typed value: always its own undo step.
    pub fn push_typed(&mut self, command: impl Command + 'static) {
        self.edits.push(Edit {
            command: Box::new(command),
            new_step: true,
        });
    }

    /// A text row: committed text is applied; text still being typed is kept as the draft, so
    /// that it is applied rather than lost when its field goes away (another object selected).
    pub fn text<C: Command + 'static>(&mut self, row: TextRow, make: impl Fn(String) -> C) {
        self.shown.push(row.id);
        if let Some(text) = row.committed {
            self.push_typed(make(text));
        } else if let Some(text) = row.draft {
            self.draft = Some(Draft {
                id: row.id,
                command: Box::new(make(text)),
            });
        }
    }

    /// Applies the previous pass's draft when its field was not shown this pass: the user moved
    /// elsewhere while typing, and what they typed must not vanish. A field still shown says
    /// for itself what its text is: applied, still typed, or typed back to (or undone to) the
    /// document's own text, when there is nothing to apply.
    pub fn keep_vanished_draft(&mut self, ctx: &egui::Context, previous: Option<Draft>) {
        let Some(previous) = previous else {
            return;
        };
        if self.shown.contains(&previous.id) {
            return;
        }
        ctx.data_mut(|d| d.remove::<String>(previous.id));
        self.edits.insert(
            0,
            Edit {
                command: previous.command,
                new_step: true,
            },
        );
    }
}

/// Whether a widget's change starts a new undo step: a click or typed value always does, a
/// drag only when it starts.
pub fn starts_step(response: &egui::Response) -> bool {
    !response.dragged() || response.drag_started()
}

/// A read-only row.
pub fn field(ui: &mut egui::Ui, name: &str, value: impl Into<String>) {
    ui.label(name);
    ui.label(value.into());
    ui.end_row();
}

/// Gives a widget its disabled reason and its label.
fn finish(response: egui::Response, label: egui::Id, why_not: Option<&str>) -> egui::Response {
    let response = response.labelled_by(label);
    match why_not {
        Some(why) => response.on_disabled_hover_text(why),
        None => response,
    }
}

/// A text row that hands back its new text when the user presses Enter or leaves the field,
/// so a half-typed name is not applied at every keystroke; while focused it hands back the
/// draft (see [`Edits::text`]). `key` tells apart the objects it edits: their drafts are kept
/// apart, while the field itself keeps one id whatever it shows, so playback moving to the
/// next frame makes no new widget (a new one costs egui two more paints to style it).
pub fn text_row(
    ui: &mut egui::Ui,
    name: &str,
    key: impl std::hash::Hash + std::fmt::Debug,
    current: &str,
    multiline: bool,
    why_not: Option<&str>,
) -> TextRow {
    let label = ui.label(name);
    let id = ui.make_persistent_id((name, key));
    let mut buffer = ui
        .data(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| current.to_string());
    let editor = if multiline {
        egui::TextEdit::multiline(&mut buffer).desired_rows(2)
    } else {
        egui::TextEdit::singleline(&mut buffer)
    };
    let field_id = ui.make_persistent_id(name).with("edit");
    let response = ui.add_enabled(why_not.is_none(), editor.id(field_id));
    let response = finish(response, label.id, why_not);
    ui.end_row();
    let mut row = TextRow {
        id,
        committed: None,
        draft: None,
    };
    if response.lost_focus() {
        ui.data_mut(|d| d.remove::<String>(id));
        // Esc gives the field back its value; Enter or leaving the field applies the text.
        let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
        row.committed = (buffer != current && !escaped).then_some(buffer);
    } else if response.has_focus() {
        row.draft = (buffer != current).then(|| buffer.clone());
        ui.data_mut(|d| d.insert_temp(id, buffer));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
    }
    row
}

/// A checkbox; hands back its new state when clicked.
pub fn check(
    ui: &mut egui::Ui,
    text: &str,
    current: bool,
    why_not: Option<&str>,
) -> Option<(bool, egui::Response)> {
    let mut value = current;
    let response = ui.add_enabled(why_not.is_none(), egui::Checkbox::new(&mut value, text));
    let response = match why_not {
        Some(why) => response.on_disabled_hover_text(why),
        None => response,
    };
    response.changed().then_some((value, response))
}

/// A number widget for any `egui::emath::Numeric`, labelled by `label`. A typed value is
/// handed back once, when Enter is pressed or the field is left (Esc gives the field back its
/// value), so typing "150" is one edit rather than 1, 15 and 150; a drag hands back every step
/// (one undo step, see [`starts_step`]).
pub fn number<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: egui::Id,
    value: N,
    configure: impl FnOnce(egui::DragValue<'_>) -> egui::DragValue<'_>,
    why_not: Option<&str>,
) -> Option<(N, egui::Response)> {
    let mut value = value;
    let field = configure(egui::DragValue::new(&mut value));
    let response = crate::app::context::number_field::add(ui, why_not.is_none(), field);
    let response = finish(response, label, why_not);
    response.changed().then_some((value, response))
}

/// A position in pixels, exact to 1/256 px; whole pixels only when `whole`.
pub fn pixels(
    ui: &mut egui::Ui,
    label: egui::Id,
    value: Fx,
    whole: bool,
    why_not: Option<&str>,
) -> Option<(Fx, egui::Response)> {
    number(
        ui,
        label,
        value.to_f64(),
        |d| {
            let d = d.speed(if whole { 1.0 } else { 0.25 }).suffix(" px");
            if whole {
                d.fixed_decimals(0)
            } else {
                d.max_decimals(4)
            }
        },
        why_not,
    )
    .map(|(v, r)| {
        let v = if whole { v.round() } else { v };
        (Fx::from_f64(v), r)
    })
}

/// A row of two pixel fields (x, y); hands back the new pair.
pub fn pixel_pair_row(
    ui: &mut egui::Ui,
    name: &str,
    (x, y): (Fx, Fx),
    whole: bool,
    why_not: Option<&str>,
) -> Option<((Fx, Fx), egui::Response)> {
    let label = ui.label(name);
    let changed = ui
        .horizontal(|ui| {
            if let Some((x, r)) = pixels(ui, label.id, x, whole, why_not) {
                return Some(((x, y), r));
            }
            pixels(ui, label.id, y, whole, why_not).map(|(y, r)| ((x, y), r))
        })
        .inner;
    ui.end_row();
    changed
}

/// A row of two number fields, told apart by `prefixes` ("group ", "image ") and set up alike
/// by `configure`; hands back the pair with the field that changed.
pub fn number_pair_row<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    name: &str,
    (first, second): (N, N),
    prefixes: [&str; 2],
    configure: impl Fn(egui::DragValue<'_>) -> egui::DragValue<'_>,
    why_not: Option<&str>,
) -> Option<((N, N), egui::Response)> {
    let label = ui.label(name);
    let changed = ui
        .horizontal(|ui| {
            let mut pair = [first, second];
            let mut changed = None;
            for (value, prefix) in pair.iter_mut().zip(prefixes) {
                let edited = number(
                    ui,
                    label.id,
                    *value,
                    |d| configure(d).prefix(prefix),
                    why_not,
                );
                if let Some((typed, r)) = edited {
                    *value = typed;
                    changed = changed.or(Some(r));
                }
            }
            changed.map(|r| ((pair[0], pair[1]), r))
        })
        .inner;
    ui.end_row();
    changed
}

/// A combo box row choosing among `options` (value, text); hands back the chosen value.
pub fn choice_row<T: Clone + PartialEq>(
    ui: &mut egui::Ui,
    name: &str,
    key: impl std::hash::Hash + std::fmt::Debug,
    current: &T,
    options: &[(T, String)],
    why_not: Option<&str>,
) -> Option<(T, egui::Response)> {
    let label = ui.label(name);
    let selected = options
        .iter()
        .find(|(v, _)| v == current)
        .map(|(_, t)| t.clone())
        .unwrap_or_default();
    let mut chosen = None;
    let inner = ui.add_enabled_ui(why_not.is_none(), |ui| {
        egui::ComboBox::from_id_salt((name, key))
            .selected_text(selected)
            .show_ui(ui, |ui| {
                for (value, text) in options {
                    if ui.selectable_label(value == current, text).clicked() {
                        chosen = Some(value.clone());
                    }
                }
            })
    });
    let response = finish(inner.inner.response, label.id, why_not);
    ui.end_row();
    chosen.map(|c| (c, response))
}
