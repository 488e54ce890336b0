//! Why the demo failed ([`DemoError`]), shared by the scene runs
//! (`demo.rs`) and the box stacks (`demo_stacks.rs`).

use parapet_scenes::SceneError;

/// Why the demo failed.
#[derive(Debug)]
pub enum DemoError {
    /// A scene could not be built.
    Scene(SceneError),
    /// Writing the table or a plot failed.
    Io(std::io::Error),
    /// plotters failed to draw a plot.
    Plot(String),
}

impl std::fmt::Display for DemoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DemoError::Scene(e) => write!(f, "building a scene: {e}"),
            DemoError::Io(e) => write!(f, "writing the demo output: {e}"),
            DemoError::Plot(e) => write!(f, "drawing a plot: {e}"),
        }
    }
}

impl std::error::Error for DemoError {}

impl From<SceneError> for DemoError {
    fn from(e: SceneError) -> Self {
        DemoError::Scene(e)
    }
}

impl From<std::io::Error> for DemoError {
    fn from(e: std::io::Error) -> Self {
        DemoError::Io(e)
    }
}
