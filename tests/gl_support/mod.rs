//! A real OpenGL context for tests that draw through the GPU (Mesa's software device through
//! EGL, no window).

use eframe::glow;
use glutin::api::egl::{device::Device, display::Display};
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder};
use glutin::prelude::*;

/// A current GL context of `api` on the first EGL device that makes one, with nothing to draw
/// on but framebuffers of its own; the display is kept alive with it.
pub fn gl_context(api: ContextApi) -> Result<(glow::Context, impl Sized), String> {
    let devices = Device::query_devices().map_err(|e| format!("no EGL devices: {e}"))?;
    let mut why = String::from("no EGL device");
    for device in devices {
        // SAFETY: no display handle is passed.
        let display = match unsafe { Display::with_device(&device, None) } {
            Ok(display) => display,
            Err(e) => {
                why = format!("no display on {device:?}: {e}");
                continue;
            }
        };
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .build();
        // SAFETY: the display is valid for the calls.
        let config = match unsafe { display.find_configs(template) }.map(|mut c| c.next()) {
            Ok(Some(config)) => config,
            _ => {
                why = format!("no surfaceless config on {device:?}");
                continue;
            }
        };
        let attributes = ContextAttributesBuilder::new()
            .with_context_api(api)
            .build(None);
        // SAFETY: as above.
        let context = match unsafe { display.create_context(&config, &attributes) } {
            Ok(context) => context,
            Err(e) => {
                why = format!("no {api:?} context on {device:?}: {e}");
                continue;
            }
        };
        let context = context
            .make_current_surfaceless()
            .map_err(|e| format!("the context cannot be made current: {e}"))?;
        // SAFETY: the context is current on this thread for the whole test.
        let gl = unsafe {
            glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name))
        };
        return Ok((gl, (context, display)));
    }
    Err(why)
}
