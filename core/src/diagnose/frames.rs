//! Which code raised: the traceback frames around the out-of-memory line
//! (`F.cross_entropy`, an attention block, `optimizer.step()`,
//! `from_pretrained`...). A hint counts only on a traceback line (`File "…"`
//! or the source line under it), so a config dump that mentions "attention"
//! is not taken for a frame.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Frame {
    CrossEntropy,
    Attention,
    Embedding,
    OptimizerStep,
    Backward,
    Generate,
    FromPretrained,
    TorchLoad,
    Collate,
    ProcessStart,
}

impl Frame {
    /// How a fix's "because" names it.
    pub fn label(self) -> &'static str {
        match self {
            Frame::CrossEntropy => "the loss (cross-entropy over the logits)",
            Frame::Attention => "attention",
            Frame::Embedding => "an embedding",
            Frame::OptimizerStep => "optimizer.step()",
            Frame::Backward => "backward()",
            Frame::Generate => "generate()",
            Frame::FromPretrained => "model loading (from_pretrained / load_state_dict)",
            Frame::TorchLoad => "torch.load",
            Frame::Collate => "batch collation in the DataLoader",
            Frame::ProcessStart => "starting a worker process (fork)",
        }
    }
}

/// Frames seen on traceback lines, in log order, with their line numbers.
#[derive(Debug, Default)]
pub struct Frames {
    seen: Vec<(Frame, usize)>,
    /// The last line that holds `File "`: the next line is its source line.
    last_file_line: Option<usize>,
}

const MAX_FRAMES: usize = 256;

impl Frames {
    pub fn traceback_line(&mut self, line: usize) {
        self.last_file_line = Some(line);
    }

    /// A frame hint on `line`, kept if the line belongs to a traceback.
    pub fn hint(&mut self, frame: Frame, line: usize) {
        let in_traceback = self.last_file_line.is_some_and(|f| f == line || f + 1 == line);
        if in_traceback && self.seen.len() < MAX_FRAMES && self.seen.last() != Some(&(frame, line)) {
            self.seen.push((frame, line));
        }
    }

    /// The frames of the traceback that raised the first out-of-memory line:
    /// those printed before it (Python prints the traceback first), or, when
    /// the message came first, those after it. Innermost last.
    pub fn around(&self, oom_line: Option<usize>) -> Vec<(Frame, usize)> {
        let Some(oom) = oom_line else { return self.seen.clone() };
        let before: Vec<(Frame, usize)> = self.seen.iter().copied().filter(|(_, l)| *l <= oom).collect();
        if before.is_empty() {
            self.seen.clone()
        } else {
            before
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_traceback_lines_count() {
        let mut f = Frames::default();
        f.hint(Frame::Attention, 1);
        f.traceback_line(5);
        f.hint(Frame::Backward, 6);
        f.hint(Frame::Attention, 9);
        assert_eq!(f.around(Some(10)), vec![(Frame::Backward, 6)]);
    }

    #[test]
    fn frames_before_the_error_win_over_a_later_traceback() {
        let mut f = Frames::default();
        f.traceback_line(3);
        f.hint(Frame::OptimizerStep, 3);
        f.traceback_line(20);
        f.hint(Frame::Generate, 21);
        assert_eq!(f.around(Some(10)), vec![(Frame::OptimizerStep, 3)]);
        assert_eq!(f.around(Some(2)).len(), 2, "message first: the traceback after it");
    }
}
