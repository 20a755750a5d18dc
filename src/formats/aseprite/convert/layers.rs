//! The layers a converted document needs.
//!
//! A frame's graphics drawn normally are flattened into one picture per run of them: normal
//! compositing is associative, so the runs stacked as layers draw what the whole frame draws.
//! A graphic that adds or subtracts cannot be baked into pixels over transparency (it blends
//! with whatever is under it: the frame's other graphics, and the game's stage), so it goes on
//! a layer of its own with Aseprite's matching blend mode and the graphic's opacity. The
//! frames' stacks of runs are then merged into one list of layers in which every frame's stack
//! keeps its order.

use crate::formats::{Loss, Place};
use crate::model::{BlendMode, Frame, OPAQUE};

/// Aseprite's Normal blend mode (the layer chunk's number).
pub const NORMAL: u16 = 0;
/// Aseprite's Addition: `min(backdrop + source, 255)`, the AIR `A` blend.
pub const ADDITION: u16 = 16;
/// Aseprite's Subtract: `max(backdrop - source, 0)`, the AIR `S` blend.
pub const SUBTRACT: u16 = 17;

/// What a layer is: Aseprite's blend mode and the layer's opacity (0 to 255).
pub type LayerKind = (u16, u8);

/// Graphics of a frame drawn as one picture on one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The layer's blend mode.
    pub blend: u16,
    /// The layer's opacity: the graphic's when it blends by the layer's mode (its picture is
    /// then drawn opaque), full for a normal run (opacities are in its picture).
    pub opacity: u8,
    /// The graphics, as indices into the frame's elements, bottom first.
    pub elements: Vec<usize>,
}

/// Aseprite's blend mode for `blend`, `None` when it has none that draws the same.
fn aseprite_blend(blend: BlendMode) -> Option<u16> {
    match blend {
        BlendMode::Normal => Some(NORMAL),
        BlendMode::Add {
            source: 256,
            destination: 256,
        } => Some(ADDITION),
        BlendMode::Subtract => Some(SUBTRACT),
        BlendMode::Add { .. } => None,
    }
}

/// The runs of `frame` (the file's frame `index`), bottom first. A graphic whose blend
/// Aseprite has no mode for is drawn into the normal run it lies in, named in `losses`.
pub fn runs(frame: &Frame, index: usize, losses: &mut Vec<Loss>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (at, element) in frame.elements.iter().enumerate() {
        let Some(graphic) = element.as_graphic() else {
            continue;
        };
        let blend = aseprite_blend(graphic.blend).unwrap_or_else(|| {
            if let BlendMode::Add {
                source,
                destination,
            } = graphic.blend
            {
                losses.push(Loss::new(
                    Place::document(),
                    format!(
                        "frame {index}: a graphic's additive blend (source {source}/256, destination {destination}/256), which no Aseprite blend mode draws: it is drawn into the frame's picture over what is under it there"
                    ),
                ));
            }
            NORMAL
        });
        let opacity = if blend == NORMAL {
            255
        } else {
            ((u32::from(graphic.opacity) * 255 + u32::from(OPAQUE) / 2) / u32::from(OPAQUE)) as u8
        };
        match runs.last_mut() {
            Some(run) if blend == NORMAL && run.blend == NORMAL => run.elements.push(at),
            _ => runs.push(Run {
                blend,
                opacity,
                elements: vec![at],
            }),
        }
    }
    runs
}

/// One list of layers (bottom first) holding every stack of `stacks` (each a frame's runs'
/// layer kinds, bottom first) in order; for each stack, the layer of each of its runs. Each
/// run takes the lowest layer of its kind above the previous run's, or a new layer right
/// above it.
pub fn merge(stacks: &[Vec<LayerKind>]) -> (Vec<LayerKind>, Vec<Vec<usize>>) {
    // Layers by creation number, kept in bottom-to-top order.
    let mut layers: Vec<(LayerKind, usize)> = Vec::new();
    let mut placed: Vec<Vec<usize>> = Vec::with_capacity(stacks.len());
    for stack in stacks {
        let mut below: Option<usize> = None;
        let mut ids = Vec::with_capacity(stack.len());
        for &kind in stack {
            let start = below.map_or(0, |b| b + 1);
            let at = match layers[start..].iter().position(|(k, _)| *k == kind) {
                Some(offset) => start + offset,
                None => {
                    layers.insert(start, (kind, layers.len()));
                    start
                }
            };
            ids.push(layers[at].1);
            below = Some(at);
        }
        placed.push(ids);
    }
    let position_of = |id: usize| layers.iter().position(|(_, i)| *i == id).unwrap_or(0);
    let placed = placed
        .into_iter()
        .map(|ids| ids.into_iter().map(position_of).collect())
        .collect();
    (layers.into_iter().map(|(kind, _)| kind).collect(), placed)
}

/// The name of each layer of `kinds`: "Frames" for normal ones, the blend's name for the
/// others, numbered from the second of a blend on.
pub fn names(kinds: &[LayerKind]) -> Vec<String> {
    let mut seen: Vec<u16> = Vec::new();
    kinds
        .iter()
        .map(|&(blend, _)| {
            let base = match blend {
                ADDITION => "Addition",
                SUBTRACT => "Subtract",
                _ => "Frames",
            };
            seen.push(blend);
            match seen.iter().filter(|&&b| b == blend).count() {
                1 => base.to_string(),
                n => format!("{base} {n}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_merge_keeping_each_frames_order() {
        let (n, a, half, s) = (
            (NORMAL, 255),
            (ADDITION, 255),
            (ADDITION, 128),
            (SUBTRACT, 255),
        );
        let stacks = vec![vec![n], vec![n, a, n], vec![s], vec![a, s], vec![half]];
        let (layers, placed) = merge(&stacks);
        for (stack, at) in stacks.iter().zip(&placed) {
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?} goes up");
            let kinds: Vec<LayerKind> = at.iter().map(|&i| layers[i]).collect();
            assert_eq!(&kinds, stack);
        }
        assert_eq!(layers.len(), 6);
        assert_eq!(merge(&[vec![n], vec![n]]).0, [n]);
        assert_eq!(names(&[n, a, n]), ["Frames", "Addition", "Frames 2"]);
    }
}
