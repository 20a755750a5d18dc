//! Kung Fu Man (AIR + SFF) converted to ISPRITE renders the same pixels as the original for
//! every frame of actions 0 and 200.

mod common;

use sprat::assets::ImageStore;
use sprat::formats::isprite::IspriteFormat;
use sprat::formats::sff::SffStore;
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, GraphicSource};
use sprat::pixels::{PixelSource, SourcePixels};
use sprat::render::{RenderOptions, Scene, render};

/// SFF sprites from the SFF store, everything else from image files.
struct Pixels {
    sff: SffStore,
    files: ImageStore,
}

impl PixelSource for Pixels {
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        match source {
            GraphicSource::SffSprite { .. } => self.sff.pixels(document, source),
            _ => self.files.pixels(document, source),
        }
    }
}

fn pixels() -> Pixels {
    Pixels {
        sff: SffStore::new(),
        files: ImageStore::new(),
    }
}

#[test]
fn converted_kfm_renders_actions_0_and_200_pixel_for_pixel() {
    let def = common::corpus().join("mugen/kfm/kfm.def");
    let (loaded, _) = registry()
        .open(&def, &ReadContext::default())
        .expect("KFM opens");
    let original = loaded.document;
    let source_pixels = pixels();

    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let out = dir.join("kfm.isprite");
    let context = WriteContext {
        path: Some(out.clone()),
        pixels: Some(&source_pixels),
    };
    let written = IspriteFormat.write(&original, &context).expect("converts");
    assert!(!written.companions.is_empty(), "KFM's sprites are packed");
    // KFM uses AIR default boxes, one-frame actions that loop (ISPRITE stops on a last
    // frame instead) and action titles (comment lines ISPRITE has no place for); nothing
    // else it holds is beyond ISPRITE.
    assert!(
        written
            .losses
            .iter()
            .any(|l| l.what.contains("AIR default boxes"))
    );
    for loss in &written.losses {
        assert!(
            loss.what.contains("AIR default boxes")
                || loss.what.contains("on or past the last frame")
                || loss.what.contains("the title"),
            "unexpected loss: {loss}"
        );
    }
    std::fs::write(&out, &written.bytes).unwrap();
    for companion in &written.companions {
        std::fs::write(dir.join(&companion.relative_path), &companion.bytes).unwrap();
    }

    let loaded = IspriteFormat
        .read(&written.bytes, &ReadContext::for_path(&out))
        .expect("the converted file reads");
    let converted = loaded.document;
    let converted_pixels = pixels();
    let options = RenderOptions::default();
    for action in ["0", "200"] {
        let a = original
            .sequence_by_name(action)
            .expect("KFM has the action");
        let b = converted
            .sequence_by_name(action)
            .expect("the action keeps its number as its name");
        let count = a.directions[0].frames.len();
        assert!(count > 0);
        assert_eq!(b.directions[0].frames.len(), count, "action {action}");
        for index in 0..count {
            let sa = Scene::at(&original, a.id, 0, index, options.box_rule).unwrap();
            let sb = Scene::at(&converted, b.id, 0, index, options.box_rule).unwrap();
            let ia = render(&original, &sa, &source_pixels, &options);
            let ib = render(&converted, &sb, &converted_pixels, &options);
            assert!(
                ia.pixels().any(|p| p[3] != 0),
                "action {action} frame {index} draws something"
            );
            assert_eq!(
                ia.dimensions(),
                ib.dimensions(),
                "action {action} frame {index}"
            );
            assert!(ia == ib, "action {action} frame {index}: pixels differ");
        }
    }
}
