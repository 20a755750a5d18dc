//! Working out fit or trace boxes for frames of a direction, from their pictures.

use super::fit::fit;
use super::mask::{OpaqueMask, frame_mask};
use super::trace::{TraceOptions, trace};
use crate::model::{AnimationSet, FrameId, Sequence, Shape};
use crate::pixels::PixelSource;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// How boxes are made from a frame's opaque pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxMethod {
    /// One box around everything, grown by a margin.
    Fit {
        /// Pixels added on each side.
        margin: i32,
    },
    /// A few boxes covering the pixels closely.
    Trace(TraceOptions),
}

impl BoxMethod {
    /// "Fit" or "Trace", for history labels.
    pub fn verb(&self) -> &'static str {
        match self {
            BoxMethod::Fit { .. } => "Fit",
            BoxMethod::Trace(_) => "Trace",
        }
    }

    /// The boxes for one mask.
    pub fn boxes(&self, mask: &OpaqueMask) -> Vec<Shape> {
        match self {
            BoxMethod::Fit { margin } => fit(mask, *margin)
                .map(|b| b.to_shape())
                .into_iter()
                .collect(),
            BoxMethod::Trace(options) => {
                trace(mask, options).iter().map(|b| b.to_shape()).collect()
            }
        }
    }
}

/// The boxes for frames `indices` of one direction: `(position, shapes)` in the order given;
/// a frame with no opaque pixels gets no shapes. A frame listed at several positions is
/// rendered once.
pub fn plan_boxes(
    document: &AnimationSet,
    sequence: &Sequence,
    direction: usize,
    indices: &[usize],
    method: BoxMethod,
    pixels: &dyn PixelSource,
) -> Vec<(usize, Vec<Shape>)> {
    let Some(ids) = sequence.directions.get(direction).map(|d| &d.frames) else {
        return Vec::new();
    };
    // Each distinct frame is drawn and boxed once, on every thread of the current pool.
    let mut distinct: Vec<FrameId> = Vec::new();
    let mut seen: HashSet<FrameId> = HashSet::new();
    for &index in indices {
        if let Some(&id) = ids.get(index)
            && seen.insert(id)
        {
            distinct.push(id);
        }
    }
    let done: HashMap<FrameId, Vec<Shape>> = distinct
        .into_par_iter()
        .map(|id| {
            let shapes = document
                .frame(id)
                .and_then(|frame| frame_mask(document, frame, pixels))
                .map(|mask| method.boxes(&mask))
                .unwrap_or_default();
            (id, shapes)
        })
        .collect();
    let mut out = Vec::new();
    for &index in indices {
        let Some(id) = ids.get(index) else { continue };
        out.push((index, done.get(id).cloned().unwrap_or_default()));
    }
    out
}
