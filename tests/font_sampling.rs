//! egui's font texture read at the nearest texel by the GL painter (the editor's window asks
//! it at every paint): on a real OpenGL context, a UI of text of several sizes, buttons, a text
//! field and filled frames paints exactly the same pixels as with egui's own linear filtering,
//! and the filter really is the nearest one while it paints.

mod gl_support;

use eframe::egui_glow::Painter;
use eframe::glow::{self, HasContext};
use glutin::context::{ContextApi, Version};
use std::sync::Arc;

const WIDTH: i32 = 640;
const HEIGHT: i32 = 360;

/// What egui draws in a frame: words of several sizes, widgets, a filled frame.
fn some_ui(ui: &mut egui::Ui) {
    ui.heading("Standing Animation");
    ui.label("0 · Standing Animation   11 frames · 151 ticks (2.517 s)");
    ui.small("warning kfm.air:963:2: a Clsn2 box under a Clsn1 declaration counts as Clsn1");
    ui.horizontal(|ui| {
        let _ = ui.button("Play");
        let _ = ui.button("Duplicate frames");
        let mut on = true;
        ui.checkbox(&mut on, "Loop");
    });
    let mut text = String::from("Walking Forward");
    ui.text_edit_singleline(&mut text);
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(40, 90, 140))
        .inner_margin(8.0)
        .show(ui, |ui| ui.strong("20,3  39×109  axis 12,108  Lz5"));
}

/// The pixels `painter` paints of two UI frames of [`some_ui`] (the second, laid out), and the
/// font texture's minifying and magnifying filters as the paint left them; the font callback
/// added to each frame when `nearest`.
fn painted(gl: &Arc<glow::Context>, nearest: bool) -> (Vec<u8>, [i32; 2]) {
    let mut painter = Painter::new(Arc::clone(gl), "", None, false).unwrap();
    let ctx = egui::Context::default();
    let mut pixels = vec![0u8; (WIDTH * HEIGHT * 4) as usize];
    // SAFETY: the context is current on this thread; every object made here is deleted here.
    let filters = unsafe {
        let target = gl.create_texture().unwrap();
        gl.bind_texture(glow::TEXTURE_2D, Some(target));
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            WIDTH,
            HEIGHT,
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
        for _ in 0..2 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(WIDTH as f32, HEIGHT as f32),
                )),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| {
                if nearest {
                    sprat::app::shell::font_sampling::paint_fonts_nearest(ui.ctx());
                }
                egui::CentralPanel::default().show(ui, some_ui);
            });
            let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            painter.paint_and_update_textures(
                [WIDTH as u32, HEIGHT as u32],
                output.pixels_per_point,
                &primitives,
                &mut output.textures_delta,
            );
        }
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            0,
            0,
            WIDTH,
            HEIGHT,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        let fonts = painter.texture(egui::TextureId::default()).unwrap();
        gl.bind_texture(glow::TEXTURE_2D, Some(fonts));
        let filters = [
            gl.get_tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER),
            gl.get_tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER),
        ];
        assert_eq!(gl.get_error(), glow::NO_ERROR);
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(framebuffer);
        gl.delete_texture(target);
        filters
    };
    painter.destroy();
    (pixels, filters)
}

#[test]
fn the_font_texture_read_at_the_nearest_texel_paints_what_linear_filtering_paints() {
    let (gl, _keep) = gl_support::gl_context(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .unwrap_or_else(|why| panic!("no OpenGL 3.3 context through EGL: {why}"));
    let gl = Arc::new(gl);
    let (linear, filters) = painted(&gl, false);
    assert_eq!(filters, [glow::LINEAR as i32; 2], "egui's own filtering");
    let (nearest, filters) = painted(&gl, true);
    assert_eq!(filters, [glow::NEAREST as i32; 2], "the callback's");
    // The panel's fill is the top-left pixel; words and widgets are drawn over it.
    let fill = &linear[(HEIGHT as usize - 1) * WIDTH as usize * 4..][..4];
    let inked = linear.chunks_exact(4).filter(|p| p != &fill).count();
    assert!(inked > 5_000, "the UI is drawn ({inked} pixels)");
    let differing = linear
        .chunks_exact(4)
        .zip(nearest.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "pixels painted otherwise");
}
