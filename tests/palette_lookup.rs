//! Paletted sprites drawn through the GPU's palette lookup, on a real OpenGL context (Mesa's
//! software device through EGL, no window): every paletted sprite of every SFF in the corpus
//! comes out exactly as the software renderer draws it, flipped or not, at zoom 1 and
//! magnified, in both of the shader's dialects (OpenGL 3 and OpenGL ES 3, WebGL2's).

mod common;
mod gl_support;

use eframe::glow::{self, HasContext};
use gl_support::gl_context;
use glutin::context::{ContextApi, Version};
use sprat::app::context::pictures::compose::{
    ComposeAhead, Composed, ComposedPixels, Job, PictureSources,
};
use sprat::app::context::pictures::gpu_palette::{PalettePainter, Quad, Uploads};
use sprat::app::context::pictures::indexed::{IndexedPicture, indexed_picture};
use sprat::app::context::pictures::{FrameKey, PictureStamp};
use sprat::assets::ImageStore;
use sprat::formats::sff::store::{Indices, IndicesKey};
use sprat::formats::sff::{SffArchive, SpriteFormat};
use sprat::model::{
    AnimationSet, Element, ElementId, ElementKind, Frame, FrameDuration, Graphic, GraphicSource,
    ImageId, ImageKind, Origin, Point, SequenceId, SourceImage,
};
use sprat::render::{Scene, render_cropped};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A document showing sprite (`group`, `number`) of the archive at `path`, as M.U.G.E.N
/// places a sprite (its axis at the origin), flipped as asked.
fn one_sprite(path: &Path, group: u16, number: u16, flips: (bool, bool)) -> (AnimationSet, Frame) {
    let mut document = AnimationSet::new();
    let archive = ImageId(document.alloc_id());
    document.images.push(SourceImage {
        id: archive,
        path: path.file_name().unwrap().to_string_lossy().into_owned(),
        resolved: Some(path.to_path_buf()),
        kind: ImageKind::Sff {
            palettes: Vec::new(),
            active_palette: None,
        },
        nearest_neighbour: true,
    });
    let mut graphic = Graphic::new(
        GraphicSource::SffSprite {
            archive,
            group: group.into(),
            image: number.into(),
        },
        Point::ZERO,
        Origin::SourceAxis,
    );
    (graphic.flip_h, graphic.flip_v) = flips;
    let mut frame = Frame::new(FrameDuration::Ticks(1));
    frame.elements.push(Element {
        id: ElementId(document.alloc_id()),
        name: Default::default(),
        kind: ElementKind::Graphic(graphic),
    });
    (document, frame)
}

/// What `painter` draws of `picture` into a fresh `zoom` times larger framebuffer, the
/// lookup's own colours (not blended), row by row from the top.
fn drawn(
    gl: &glow::Context,
    painter: &PalettePainter,
    picture: &IndexedPicture,
    zoom: u32,
    mirrored: bool,
) -> Vec<[u8; 4]> {
    let width = (picture.rect.width * zoom) as i32;
    let height = (picture.rect.height * zoom) as i32;
    let mut read = vec![0u8; width as usize * height as usize * 4];
    // SAFETY: the context is current; every object made here is deleted here.
    unsafe {
        let target = gl.create_texture().unwrap();
        gl.bind_texture(glow::TEXTURE_2D, Some(target));
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            width,
            height,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(None),
        );
        let framebuffer = gl.create_framebuffer().unwrap();
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(target),
            0,
        );
        assert_eq!(
            gl.check_framebuffer_status(glow::FRAMEBUFFER),
            glow::FRAMEBUFFER_COMPLETE
        );
        gl.viewport(0, 0, width, height);
        // Something the lookup must write over everywhere, transparent pixels included.
        gl.clear_color(0.5, 0.25, 0.75, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        let quad = Quad {
            corners: [-1.0, 1.0, 1.0, -1.0],
            mirrored,
            blended: false,
        };
        painter.draw(gl, picture, quad);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            0,
            0,
            width,
            height,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut read)),
        );
        assert_eq!(gl.get_error(), glow::NO_ERROR);
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(framebuffer);
        gl.delete_texture(target);
    }
    // GL reads the bottom row first.
    let rows: Vec<&[u8]> = read.chunks_exact(width as usize * 4).rev().collect();
    rows.concat()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

/// `pixels` (`width` across) magnified `zoom` times and, when `mirrored`, turned round.
fn magnified(pixels: &[[u8; 4]], width: usize, zoom: usize, mirrored: bool) -> Vec<[u8; 4]> {
    let height = pixels.len() / width;
    let mut out = Vec::with_capacity(pixels.len() * zoom * zoom);
    for y in 0..height * zoom {
        for x in 0..width * zoom {
            let x = if mirrored { width * zoom - 1 - x } else { x };
            out.push(pixels[(y / zoom) * width + x / zoom]);
        }
    }
    out
}

/// Every paletted sprite of every corpus SFF through the lookup on `gl`: the renderer's
/// pixels exactly. Returns how many sprites were drawn.
fn every_corpus_sprite_matches_the_renderer(gl: &glow::Context, dialect: &str) -> usize {
    let painter = PalettePainter::new(gl).unwrap_or_else(|e| panic!("{dialect}: {e}"));
    let files = common::files_with_extensions(&common::corpus(), &["sff"]);
    assert!(
        files.len() >= 14,
        "the corpus SFF files, found {}",
        files.len()
    );
    let mut drawn_sprites = 0;
    for path in files {
        let name = path
            .strip_prefix(common::corpus())
            .unwrap()
            .display()
            .to_string();
        let archive = SffArchive::open(&path).unwrap();
        let store = ImageStore::new();
        let known: RefCell<HashMap<IndicesKey, Arc<Indices>>> = RefCell::default();
        for (i, info) in archive.sprites().iter().enumerate() {
            let flips = (i % 2 == 1, i % 4 >= 2);
            let (group, number) = (info.group, info.image);
            let (document, frame) = one_sprite(&path, group, number, flips);
            let scene = Scene::of_frame(&frame);
            let what = format!("{dialect}: {name} sprite {group},{number} flipped {flips:?}");
            let (rect, canvas) = render_cropped(&document, &scene, &store).expect(&what);
            let expected: Vec<[u8; 4]> = canvas.into_image().pixels().map(|p| p.0).collect();
            let remember = |key: &IndicesKey| known.borrow().get(key).cloned();
            let picture = indexed_picture(&document, &scene, &store, &remember);
            let stored_as_rgba = matches!(info.format, SpriteFormat::Png24 | SpriteFormat::Png32);
            let Some(picture) = picture else {
                assert!(stored_as_rgba, "{what}: not drawn through the lookup");
                continue;
            };
            assert!(!stored_as_rgba, "{what}: an RGBA sprite has no indices");
            known.borrow_mut().insert(
                picture.sprite.key.clone(),
                Arc::clone(&picture.sprite.indices),
            );
            assert_eq!(picture.rect, rect, "{what}");
            assert!(
                picture.straight_pixels() == expected,
                "{what}: the CPU's lookup"
            );
            let on_gpu = drawn(gl, &painter, &picture, 1, false);
            assert!(on_gpu == expected, "{what}: the GPU's lookup");
            // Magnified and turned round, as the canvas shows it zoomed in and facing left
            // (small sprites: software GL fills every pixel).
            if rect.width * rect.height <= 64 * 64 {
                let width = rect.width as usize;
                let zoomed = drawn(gl, &painter, &picture, 3, i % 3 == 0);
                let wanted = magnified(&expected, width, 3, i % 3 == 0);
                assert!(zoomed == wanted, "{what}: zoomed 3 times");
            }
            drawn_sprites += 1;
        }
    }
    drawn_sprites
}

#[test]
fn the_palette_lookup_draws_every_corpus_sprite_as_the_renderer_does() {
    let mut dialects = 0;
    for (dialect, api) in [
        ("OpenGL 3.3", ContextApi::OpenGl(Some(Version::new(3, 3)))),
        ("OpenGL ES 3.0", ContextApi::Gles(Some(Version::new(3, 0)))),
    ] {
        let (gl, _keep) = gl_context(api).unwrap_or_else(|why| {
            panic!("{dialect}: no GL context can be made here ({why}); Mesa's EGL is needed (scripts/setup)")
        });
        let count = every_corpus_sprite_matches_the_renderer(&gl, dialect);
        assert!(count > 1000, "{dialect}: only {count} sprites drawn");
        dialects += 1;
    }
    assert_eq!(dialects, 2);
}

#[test]
fn a_palette_change_uploads_the_colours_alone() {
    let (gl, _keep) = gl_context(ContextApi::OpenGl(Some(Version::new(3, 3)))).unwrap();
    let painter = PalettePainter::new(&gl).unwrap();
    let path = common::corpus().join("mugen/kfm/kfm.sff");
    let store = ImageStore::new();
    let (document, frame) = one_sprite(&path, 0, 0, (false, false));
    let scene = Scene::of_frame(&frame);
    let picture = indexed_picture(&document, &scene, &store, &|_| None).unwrap();
    let (width, height) = (picture.rect.width as u64, picture.rect.height as u64);
    drawn(&gl, &painter, &picture, 1, false);
    let first = Uploads {
        indices: 1,
        colours: 1,
        bytes: width * height + 1024,
    };
    assert_eq!(painter.uploads(), first);
    // The same sprite again, its indices known from before: nothing is decoded or uploaded.
    let indices = Arc::clone(&picture.sprite.indices);
    let again = indexed_picture(&document, &scene, &store, &|_| Some(Arc::clone(&indices)));
    let again = again.unwrap();
    assert!(Arc::ptr_eq(&again.sprite.indices, &indices));
    drawn(&gl, &painter, &again, 1, false);
    assert_eq!(painter.uploads(), first);
    // Another palette: 1 KiB.
    let mut colours = *again.sprite.colours;
    colours[1] = [1, 2, 3, 255];
    let mut recoloured = again.clone();
    recoloured.sprite.colours = Arc::new(colours);
    let pixels = drawn(&gl, &painter, &recoloured, 1, false);
    assert_eq!(
        painter.uploads(),
        Uploads {
            colours: 2,
            bytes: first.bytes + 1024,
            ..first
        }
    );
    assert_eq!(pixels, recoloured.straight_pixels());
    // The tab closed: the painter holds the sprite's indices no longer, and uploads them again
    // when they are drawn next.
    let held = Arc::strong_count(&indices);
    painter.let_go();
    assert_eq!(Arc::strong_count(&indices), held - 1);
    drawn(&gl, &painter, &recoloured, 1, false);
    assert_eq!(painter.uploads().indices, 2);
}

/// The picture of `key` once the worker has composed it.
fn composed(ahead: &ComposeAhead, key: &FrameKey) -> Composed {
    let started = std::time::Instant::now();
    loop {
        if let Some(done) = ahead.get(key) {
            return done.expect("the frame draws a sprite");
        }
        assert!(
            started.elapsed().as_secs() < 60,
            "the worker composed nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn the_worker_keeps_paletted_sprites_as_indices_and_decodes_them_once_across_palette_changes() {
    let path = common::corpus().join("mugen/kfm/kfm.sff");
    let (document, frame) = one_sprite(&path, 0, 0, (true, false));
    let pixels = Arc::new(ImageStore::new());
    let ahead = ComposeAhead::start(64 << 20, Arc::clone(&pixels), || {});
    let key = FrameKey {
        sequence: SequenceId(1),
        direction: 0,
        index: 0,
        progress: 0,
    };
    let job = || Job {
        key,
        frame: frame.clone(),
        due: web_time::Instant::now(),
    };
    let stamp = |revision| PictureStamp {
        document: 7,
        revision,
        images: pixels.generation(),
    };
    // Without the lookup (another backend), the worker makes RGBA as before.
    ahead.follow(stamp(1), || PictureSources::of(&document));
    ahead.want(vec![job()], None);
    let rgba = composed(&ahead, &key);
    assert!(matches!(rgba.pixels, ComposedPixels::Texels(_)));
    ahead.set_palette_lookup(true);
    ahead.want(Vec::new(), None);
    ahead.want(vec![job()], None);
    let ComposedPixels::Indexed(first) = composed(&ahead, &key).pixels else {
        panic!("a paletted sprite kept as RGBA");
    };
    assert!(first.flipped_x && !first.flipped_y);
    // Its texels are the RGBA picture's, pixel for pixel.
    assert_eq!(first.texels().pixels, rgba.texels().pixels);
    // A palette chosen is a new revision: the picture is composed again, from the same
    // indices (nothing decoded).
    ahead.follow(stamp(2), || PictureSources::of(&document));
    ahead.want(Vec::new(), None);
    ahead.want(vec![job()], None);
    let ComposedPixels::Indexed(again) = composed(&ahead, &key).pixels else {
        panic!("a paletted sprite kept as RGBA");
    };
    assert!(Arc::ptr_eq(&first.sprite.indices, &again.sprite.indices));
    // The canvas clears its pictures at each revision: the indices stay.
    let indexed_after = |change: &dyn Fn()| {
        change();
        ahead.want(Vec::new(), None);
        ahead.want(vec![job()], None);
        match composed(&ahead, &key).pixels {
            ComposedPixels::Indexed(picture) => picture,
            ComposedPixels::Texels(_) => panic!("a paletted sprite kept as RGBA"),
        }
    };
    let cleared = indexed_after(&|| {
        ahead.clear();
        ahead.follow(stamp(3), || PictureSources::of(&document));
    });
    assert!(Arc::ptr_eq(&first.sprite.indices, &cleared.sprite.indices));
    // Told to let them go (another document on show, its files changed): decoded again.
    let forgotten = indexed_after(&|| {
        ahead.clear();
        ahead.forget_indices();
        ahead.follow(stamp(4), || PictureSources::of(&document));
    });
    assert!(!Arc::ptr_eq(
        &first.sprite.indices,
        &forgotten.sprite.indices
    ));
    // Another document followed: the same, even untold.
    let other = indexed_after(&|| {
        let stamp = PictureStamp {
            document: 8,
            ..stamp(4)
        };
        ahead.follow(stamp, || PictureSources::of(&document));
    });
    assert!(!Arc::ptr_eq(
        &forgotten.sprite.indices,
        &other.sprite.indices
    ));
}
