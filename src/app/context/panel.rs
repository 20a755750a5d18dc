//! The one value every panel's `show` takes beside its own state: the document on show, the
//! settings, the pictures, the platform, and the [`PanelOutput`] where the panel puts the
//! commands it gives and what the status bar should say.

use crate::app::context::availability::CommandView;
use crate::app::context::command_sender::CommandSender;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::app::context::pictures::Pictures;
use crate::app::context::platform::Platform;
use crate::app::context::reference::PinnedReference;
use crate::app::context::settings::Settings;
use crate::formats::Severity;

/// What a panel stands on for one frame.
pub struct PanelCtx<'a> {
    /// The document on show.
    pub doc: &'a mut OpenDocument,
    /// The editor's settings.
    pub settings: &'a mut Settings,
    /// Rendered frames and decoded pictures.
    pub pictures: Pictures<'a>,
    /// File dialogs, background work, where saves and exports go.
    pub platform: &'a mut dyn Platform,
    /// The frame pinned as a reference (of this tab or another), drawn under the canvas.
    pub reference: Option<&'a PinnedReference>,
    /// What the panels gave back this frame.
    pub out: PanelOutput,
}

impl<'a> PanelCtx<'a> {
    /// A context for one frame, with no command given and nothing said yet.
    pub fn new(
        doc: &'a mut OpenDocument,
        settings: &'a mut Settings,
        pictures: Pictures<'a>,
        platform: &'a mut dyn Platform,
    ) -> PanelCtx<'a> {
        PanelCtx {
            doc,
            settings,
            pictures,
            platform,
            reference: None,
            out: PanelOutput::default(),
        }
    }

    /// What the commands need to know to say whether they apply (see
    /// [`UICommand::availability`](crate::app::context::commands::UICommand::availability)).
    pub fn command_view(&self) -> CommandView<'_> {
        CommandView {
            doc: Some(&*self.doc),
            reference_pinned: self.reference.is_some(),
            deletion: None,
        }
    }

    /// Tells the user something.
    pub fn say(&mut self, severity: Severity, text: impl Into<String>) {
        self.out.say(severity, text);
    }

    /// Tells the user an edit of the document was refused, and why.
    pub fn refuse(&mut self, message: &str) {
        self.out.refused(message, self.doc);
    }
}

/// What panels give back: the commands they gave (buttons, context menus, clicks that
/// select), carried out once every panel has painted, and what the status bar should say (the
/// last said is shown).
#[derive(Default)]
pub struct PanelOutput {
    /// The commands, in the order given.
    pub commands: CommandSender,
    /// What the status bar should say.
    pub feedback: Option<Feedback>,
}

impl PanelOutput {
    /// Tells the user something.
    pub fn say(&mut self, severity: Severity, text: impl Into<String>) {
        self.feedback = Some(Feedback::new(severity, text));
    }

    /// Tells the user an edit of `doc` was refused, and why; the sentence goes when the
    /// document next changes.
    pub fn refused(&mut self, message: &str, doc: &OpenDocument) {
        self.feedback = Some(Feedback::refusal(message, doc));
    }

    /// Passes on what a part of the panel said, if anything.
    pub fn tell(&mut self, feedback: Option<Feedback>) {
        if feedback.is_some() {
            self.feedback = feedback;
        }
    }
}
