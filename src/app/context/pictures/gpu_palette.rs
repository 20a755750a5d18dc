//! The palette lookup on the GPU: an [`IndexedPicture`] is uploaded as its indices (a
//! one-channel texture, a byte a pixel) and its colours (a 256x1 RGBA texture, 1 KiB), and a
//! small shader draws each pixel as the colour its index names, the way the software renderer
//! does (index 0 is transparent: the colours say so), with the sprite's flips and nearest
//! sampling at any zoom.
//!
//! It runs on eframe's glow backend (OpenGL 3.1 or OpenGL ES 3.0 / WebGL2, the shader's two
//! dialects), through an [`egui::PaintCallback`]. Where the context is older (GLSL 1.20, WebGL1)
//! [`PalettePainter::new`] refuses and frames are drawn through RGBA textures as before.
//!
//! A texture is uploaded only when what it holds changes: the same sprite shown with another
//! palette costs one upload of 1 KiB.

use super::indexed::IndexedPicture;
use crate::formats::sff::store::{Colours, Indices};
use eframe::egui_glow::{self, ShaderVersion};
use eframe::glow::{self, HasContext};
use std::sync::{Arc, Mutex};

/// The vertex shader: the quad's four corners made from the vertex number (no vertex
/// buffer), each with the texel coordinates of its corner of the picture.
const VERTEX: &str = r#"
uniform vec4 u_corners;
uniform vec4 u_texels;
out vec2 v_texel;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    gl_Position = vec4(mix(u_corners.xy, u_corners.zw, corner), 0.0, 1.0);
    v_texel = mix(u_texels.xy, u_texels.zw, corner);
}
"#;

/// The fragment shader: the texel under the pixel's centre (nearest), its index, its colour.
const FRAGMENT: &str = r#"
#ifdef GL_ES
precision highp float;
precision highp int;
precision highp sampler2D;
#endif
uniform sampler2D u_indices;
uniform sampler2D u_colours;
in vec2 v_texel;
out vec4 f_colour;
void main() {
    ivec2 size = textureSize(u_indices, 0);
    ivec2 at = clamp(ivec2(floor(v_texel)), ivec2(0), size - 1);
    int index = int(texelFetch(u_indices, at, 0).r * 255.0 + 0.5);
    f_colour = texelFetch(u_colours, ivec2(index, 0), 0);
}
"#;

/// How many uploads the painter has made: tests check that a palette change uploads the
/// colours alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uploads {
    /// Uploads of a sprite's indices.
    pub indices: u64,
    /// Uploads of colours.
    pub colours: u64,
    /// Bytes uploaded in all.
    pub bytes: u64,
}

/// Where a picture goes in the GL viewport it is drawn in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// The picture's left, top, right and bottom edges in normalised device coordinates (-1
    /// to 1 across the viewport, upwards).
    pub corners: [f32; 4],
    /// Whether the picture is shown turned round (the canvas facing left).
    pub mirrored: bool,
    /// Whether it is blended over what is there (the canvas), or its colours are written as
    /// the lookup gives them (straight, as the software renderer's pixels are).
    pub blended: bool,
}

/// What is on the GPU now.
#[derive(Default)]
struct Uploaded {
    indices_texture: Option<glow::Texture>,
    /// The size the indices texture has storage for.
    indices_size: (i32, i32),
    colours_texture: Option<glow::Texture>,
    /// The indices the texture holds (the very ones: shared with the picture).
    indices: Option<Arc<Indices>>,
    /// The colours the texture holds.
    colours: Option<Colours>,
    uploads: Uploads,
}

/// The shader and the two textures of the palette lookup (one picture at a time: the canvas
/// shows one).
pub struct PalettePainter {
    program: glow::Program,
    vertex_array: glow::VertexArray,
    uploaded: Mutex<Uploaded>,
}

impl PalettePainter {
    /// The lookup's shader built on `gl` (whose context is current); `Err` says why it cannot
    /// run there (a context older than OpenGL 3.1 / ES 3.0, a shader that does not compile).
    pub fn new(gl: &glow::Context) -> Result<PalettePainter, String> {
        let version = ShaderVersion::get(gl);
        if !version.is_new_shader_interface() {
            return Err(format!(
                "the palette lookup needs GLSL 1.40 or GLSL ES 3.00, this context has {version:?}"
            ));
        }
        let header = version.version_declaration();
        // SAFETY: the caller's context is current; every object made here is used with it.
        unsafe {
            let program = gl.create_program()?;
            let mut shaders = Vec::new();
            for (kind, source) in [
                (glow::VERTEX_SHADER, VERTEX),
                (glow::FRAGMENT_SHADER, FRAGMENT),
            ] {
                let shader = gl.create_shader(kind)?;
                gl.shader_source(shader, &format!("{header}{source}"));
                gl.compile_shader(shader);
                if !gl.get_shader_compile_status(shader) {
                    let log = gl.get_shader_info_log(shader);
                    gl.delete_shader(shader);
                    gl.delete_program(program);
                    return Err(format!(
                        "the palette lookup's shader does not compile: {log}"
                    ));
                }
                gl.attach_shader(program, shader);
                shaders.push(shader);
            }
            gl.link_program(program);
            for shader in shaders {
                gl.detach_shader(program, shader);
                gl.delete_shader(shader);
            }
            if !gl.get_program_link_status(program) {
                let log = gl.get_program_info_log(program);
                gl.delete_program(program);
                return Err(format!("the palette lookup's shader does not link: {log}"));
            }
            let vertex_array = gl.create_vertex_array()?;
            Ok(PalettePainter {
                program,
                vertex_array,
                uploaded: Mutex::new(Uploaded::default()),
            })
        }
    }

    /// Lets go of the indices drawn last (the tab that showed them closed, or its document
    /// changed): the texture keeps its storage, and the next picture is uploaded whatever it is.
    pub fn let_go(&self) {
        self.lock().indices = None;
    }

    /// The uploads made so far.
    pub fn uploads(&self) -> Uploads {
        self.lock().uploads
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Uploaded> {
        self.uploaded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Draws `picture` at `quad` in the bound framebuffer's viewport, uploading its indices
    /// and colours first when the textures hold others.
    pub fn draw(&self, gl: &glow::Context, picture: &IndexedPicture, quad: Quad) {
        let mut uploaded = self.lock();
        let indices = &picture.sprite.indices;
        let (width, height) = (indices.width as f32, indices.height as f32);
        let across = if picture.flipped_x != quad.mirrored {
            [width, 0.0]
        } else {
            [0.0, width]
        };
        let down = if picture.flipped_y {
            [height, 0.0]
        } else {
            [0.0, height]
        };
        // SAFETY: the painter's objects were made on this context, which the caller holds
        // current; the uploads read slices exactly as long as the textures they fill.
        unsafe {
            gl.active_texture(glow::TEXTURE1);
            let colours_texture = texture(gl, &mut uploaded.colours_texture);
            gl.bind_texture(glow::TEXTURE_2D, Some(colours_texture));
            if uploaded.colours.as_ref() != Some(&*picture.sprite.colours) {
                let bytes = colour_bytes(&picture.sprite.colours);
                let same_size = uploaded.colours.is_some();
                upload(gl, (glow::RGBA8, glow::RGBA), (256, 1), same_size, bytes);
                uploaded.colours = Some(*picture.sprite.colours);
                uploaded.uploads.colours += 1;
                uploaded.uploads.bytes += bytes.len() as u64;
            }
            gl.active_texture(glow::TEXTURE0);
            let indices_texture = texture(gl, &mut uploaded.indices_texture);
            gl.bind_texture(glow::TEXTURE_2D, Some(indices_texture));
            if !uploaded
                .indices
                .as_ref()
                .is_some_and(|i| Arc::ptr_eq(i, indices))
            {
                let size = (indices.width as i32, indices.height as i32);
                // Storage is made again only when the size changes.
                let same_size = uploaded.indices_size == size;
                upload(gl, (glow::R8, glow::RED), size, same_size, &indices.pixels);
                uploaded.indices_size = size;
                uploaded.indices = Some(Arc::clone(indices));
                uploaded.uploads.indices += 1;
                uploaded.uploads.bytes += indices.pixels.len() as u64;
            }
            gl.use_program(Some(self.program));
            let at = |name| gl.get_uniform_location(self.program, name);
            gl.uniform_1_i32(at("u_indices").as_ref(), 0);
            gl.uniform_1_i32(at("u_colours").as_ref(), 1);
            let [left, top, right, bottom] = quad.corners;
            gl.uniform_4_f32(at("u_corners").as_ref(), left, top, right, bottom);
            gl.uniform_4_f32(
                at("u_texels").as_ref(),
                across[0],
                down[0],
                across[1],
                down[1],
            );
            if quad.blended {
                // The colours are straight: the blend multiplies them by their alpha (the
                // alpha as egui blends its own).
                gl.enable(glow::BLEND);
                gl.blend_equation_separate(glow::FUNC_ADD, glow::FUNC_ADD);
                gl.blend_func_separate(
                    glow::SRC_ALPHA,
                    glow::ONE_MINUS_SRC_ALPHA,
                    glow::ONE_MINUS_DST_ALPHA,
                    glow::ONE,
                );
            } else {
                gl.disable(glow::BLEND);
            }
            gl.bind_vertex_array(Some(self.vertex_array));
            gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
            gl.bind_vertex_array(None);
        }
    }

    /// The paint callback that draws `picture` over `screen` (points, the picture's edges;
    /// `mirrored` when it is shown turned round) within `clip`.
    pub fn callback(
        self: &Arc<Self>,
        picture: IndexedPicture,
        screen: egui::Rect,
        mirrored: bool,
        clip: egui::Rect,
    ) -> egui::PaintCallback {
        let painter = Arc::clone(self);
        let draw = move |info: egui::PaintCallbackInfo, glow_painter: &egui_glow::Painter| {
            let corners = ndc_corners(&info.viewport_in_pixels(), screen, info.pixels_per_point);
            let quad = Quad {
                corners,
                mirrored,
                blended: true,
            };
            painter.draw(glow_painter.gl(), &picture, quad);
        };
        egui::PaintCallback {
            rect: clip,
            callback: Arc::new(egui_glow::CallbackFn::new(draw)),
        }
    }
}

/// `screen`'s left, top, right and bottom edges (points) in the normalised device coordinates
/// of the GL viewport (pixels: the one egui_glow set, rounded to whole pixels, so the picture
/// lands on the pixels egui would draw a texture of it on).
pub fn ndc_corners(
    viewport: &egui::epaint::ViewportInPixels,
    screen: egui::Rect,
    pixels_per_point: f32,
) -> [f32; 4] {
    let (left, top) = (viewport.left_px as f32, viewport.top_px as f32);
    let (width, height) = (viewport.width_px as f32, viewport.height_px as f32);
    let x = |x: f32| (x * pixels_per_point - left) / width * 2.0 - 1.0;
    let y = |y: f32| 1.0 - (y * pixels_per_point - top) / height * 2.0;
    [
        x(screen.left()),
        y(screen.top()),
        x(screen.right()),
        y(screen.bottom()),
    ]
}

/// The bytes of the colours texture: 256 RGBA colours, index order (1 KiB).
pub fn colour_bytes(colours: &Colours) -> &[u8] {
    colours.as_flattened()
}

/// The texture in `slot`, made (nearest, clamped) the first time.
///
/// # Safety
/// `gl`'s context is current.
unsafe fn texture(gl: &glow::Context, slot: &mut Option<glow::Texture>) -> glow::Texture {
    if let Some(texture) = *slot {
        return texture;
    }
    // SAFETY: as the caller's.
    unsafe {
        let texture = gl
            .create_texture()
            .expect("a GL context makes textures while it has memory");
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        for (parameter, value) in [
            (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
            (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
            (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
            (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
        ] {
            gl.tex_parameter_i32(glow::TEXTURE_2D, parameter, value as i32);
        }
        *slot = Some(texture);
        texture
    }
}

/// Fills the bound texture with `bytes`, rows tightly packed, in the storage it has when
/// `same_size`, else in new storage of `(internal, format)`.
///
/// # Safety
/// `gl`'s context is current and `bytes` holds `width * height` texels of `format`.
unsafe fn upload(
    gl: &glow::Context,
    (internal, format): (u32, u32),
    (width, height): (i32, i32),
    same_size: bool,
    bytes: &[u8],
) {
    let pixels = glow::PixelUnpackData::Slice(Some(bytes));
    // SAFETY: as the caller's.
    unsafe {
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        if same_size {
            let (target, ty) = (glow::TEXTURE_2D, glow::UNSIGNED_BYTE);
            gl.tex_sub_image_2d(target, 0, 0, 0, width, height, format, ty, pixels);
        } else {
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                internal as i32,
                width,
                height,
                0,
                format,
                glow::UNSIGNED_BYTE,
                pixels,
            );
        }
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
    }
}
