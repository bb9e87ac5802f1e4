//! GNU Radio's QT GUI blocks that a flowgraph can run without: until radioflow's web page shows
//! them, a display's streams are discarded and its messages dropped, a widget that sends
//! messages never sends (nobody presses it), and each such block is named in the graph's notes
//! (`radioflow run` prints them; `radioflow grc check` counts the flowgraph as running
//! headless). Widgets that are variables (`variable_qtgui_range`, ...) are evaluated once, as
//! variables.

use radioflow_runtime::registry::Dtype;

/// A GUI block run headless.
#[derive(Debug)]
pub struct GrHeadless {
    /// The GRC id (`qtgui_time_sink_x`).
    pub id: &'static str,
    /// Its stream inputs, discarded.
    pub inputs: HeadlessInputs,
}

/// The stream inputs of a GUI block.
#[derive(Debug, Clone, Copy)]
pub enum HeadlessInputs {
    /// As many as GRC's `count` parameter says (1 if absent), of the item type its `type`
    /// names (none for GRC's `msg_*` types, which take messages instead).
    Typed {
        /// The GRC key of the number of inputs (`nconnections`).
        count: &'static str,
    },
    /// As many as `count` says (one if `None`), of this type.
    Fixed {
        /// The item type.
        dtype: Dtype,
        /// The GRC key of the number of inputs, if it has one.
        count: Option<&'static str>,
        /// The GRC key of the inputs' vector length, if they carry vectors.
        vlen: Option<&'static str>,
    },
    /// Messages only, or nothing.
    None,
}

impl GrHeadless {
    /// What `radioflow run` says about the block named `name`.
    pub fn note(&self, name: &str) -> String {
        format!(
            "{} '{name}' runs headless: what it would show is discarded and it sends no \
             message (the web page will show GNU Radio's QT GUI blocks)",
            self.id
        )
    }
}

/// The item type GRC's `type` option of a QT GUI sink names, or `None` for a `msg_*` type
/// (messages, no stream) or an unknown one.
pub fn gui_dtype(option: &str) -> Option<Dtype> {
    Some(match option {
        "complex" => Dtype::Complex32,
        "float" => Dtype::Float32,
        "int" => Dtype::Int32,
        "short" => Dtype::Int16,
        "byte" => Dtype::Uint8,
        _ => return None,
    })
}

const fn typed(id: &'static str, count: &'static str) -> GrHeadless {
    GrHeadless {
        id,
        inputs: HeadlessInputs::Typed { count },
    }
}

const fn messages_only(id: &'static str) -> GrHeadless {
    GrHeadless {
        id,
        inputs: HeadlessInputs::None,
    }
}

/// Every GUI block that runs headless.
pub const HEADLESS: &[GrHeadless] = &[
    typed("qtgui_time_sink_x", "nconnections"),
    typed("qtgui_freq_sink_x", "nconnections"),
    typed("qtgui_const_sink_x", "nconnections"),
    typed("qtgui_waterfall_sink_x", "nconnections"),
    typed("qtgui_eye_sink_x", "nconnections"),
    typed("qtgui_histogram_sink_x", "nconnections"),
    typed("qtgui_time_raster_sink_x", "nconnections"),
    typed("qtgui_number_sink", "nconnections"),
    typed("qtgui_sink_x", "num_inputs"),
    GrHeadless {
        id: "qtgui_vector_sink_f",
        inputs: HeadlessInputs::Fixed {
            dtype: Dtype::Float32,
            count: Some("nconnections"),
            vlen: Some("vlen"),
        },
    },
    GrHeadless {
        id: "qtgui_auto_correlator_sink",
        inputs: HeadlessInputs::Fixed {
            dtype: Dtype::Complex32,
            count: None,
            vlen: None,
        },
    },
    GrHeadless {
        id: "qtgui_compass",
        inputs: HeadlessInputs::Fixed {
            dtype: Dtype::Float32,
            count: None,
            vlen: None,
        },
    },
    messages_only("qtgui_tab_widget"),
    messages_only("qtgui_grbackground"),
    messages_only("qtgui_ledindicator"),
    messages_only("qtgui_dialgauge"),
    messages_only("qtgui_levelgauge"),
    messages_only("qtgui_graphicitem"),
    messages_only("qtgui_graphicoverlay"),
    messages_only("qtgui_edit_box_msg"),
    messages_only("qtgui_msgdigitalnumbercontrol"),
    messages_only("variable_qtgui_azelplot"),
    messages_only("variable_qtgui_dial_control"),
    messages_only("variable_qtgui_toggle_button_msg"),
    messages_only("variable_qtgui_toggle_switch"),
    messages_only("variable_qtgui_msgcheckbox"),
    messages_only("variable_qtgui_msg_push_button"),
    messages_only("variable_qtgui_distanceradar"),
];

/// The GUI block of GRC id `id`, if it runs headless.
pub fn headless(id: &str) -> Option<&'static GrHeadless> {
    HEADLESS.iter().find(|h| h.id == id)
}
