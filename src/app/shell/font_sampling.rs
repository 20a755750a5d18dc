//! egui's font texture sampled at the nearest texel with the GL painter. Every glyph and every
//! fill egui draws reads that texture (a fill reads a white texel of it), and egui asks for
//! linear filtering; with software GL a linear read is four texels and their weights at every
//! pixel of every layer. Glyphs are drawn texel for pixel (egui rounds text to whole pixels and
//! rasterizes fonts at the window's scale) and fills read the middle of a white block, so the
//! nearest texel is the colour the linear read gave.

use std::sync::Arc;

/// Has the GL painter sample the font texture at the nearest texel for this paint: a paint
/// callback in the bottom layer, before anything that reads it. egui sets linear filtering
/// again whenever it uploads glyphs, so this is asked at every paint. Other painters (the
/// test harness's) are left alone.
pub fn sample_fonts_nearest(ctx: &egui::Context, frame: &eframe::Frame) {
    if frame.gl().is_some() {
        paint_fonts_nearest(ctx);
    }
}

/// Adds the paint callback that has the glow painter sample the font texture at the nearest
/// texel to this paint of `ctx` ([`sample_fonts_nearest`] where the painter is known to be
/// glow's; a test paints through one of its own).
pub fn paint_fonts_nearest(ctx: &egui::Context) {
    let callback = eframe::egui_glow::CallbackFn::new(|_info, painter| {
        use eframe::glow::{self, HasContext};
        let Some(texture) = painter.texture(egui::TextureId::default()) else {
            return;
        };
        let gl = painter.gl();
        let nearest = glow::NEAREST as i32;
        // SAFETY: GL calls on the painter's own context during its paint, on a texture it
        // holds; egui binds the texture each mesh reads before drawing it.
        unsafe {
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, nearest);
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, nearest);
        }
    });
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1.0, 1.0));
    ctx.layer_painter(egui::LayerId::background())
        .add(egui::PaintCallback {
            rect,
            callback: Arc::new(callback),
        });
}
