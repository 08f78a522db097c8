//! A small network's forward pass over a sparse input: two hidden layers of rectified linear
//! units and one output. The weights are trained elsewhere (the `fiveup-train` crate, with
//! candle's automatic differentiation) and read here from a safetensors file; only the forward
//! pass runs here, with plain loops: the first layer sums the weight rows of the input's
//! non-zero slots (a position has a few dozen of several hundred), which a dense matrix product
//! cannot exploit, and the layers' sums stay on the stack (at most [`MAX_HIDDEN`] units a layer).

use safetensors::SafeTensors;

use super::encode::Sparse;

/// The names of a network's tensors in its file, with the shapes they must have.
pub const TENSORS: [&str; 6] = ["w1", "b1", "w2", "b2", "w3", "b3"];

/// The most units a hidden layer may have (the forward pass keeps its sums on the stack).
pub const MAX_HIDDEN: usize = 512;

/// A network: `inputs` → `h1` → `h2` → 1, the output times [`Mlp::scale`].
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// Input slots.
    pub inputs: usize,
    /// First hidden layer's units.
    pub h1: usize,
    /// Second hidden layer's units.
    pub h2: usize,
    /// `[inputs][h1]`, row-major: a row per input slot.
    pub w1: Vec<f32>,
    /// `[h1]`.
    pub b1: Vec<f32>,
    /// `[h1][h2]`.
    pub w2: Vec<f32>,
    /// `[h2]`.
    pub b2: Vec<f32>,
    /// `[h2]`.
    pub w3: Vec<f32>,
    /// The output's bias.
    pub b3: f32,
    /// Points per unit of output.
    pub scale: f32,
}

/// Why a network could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

fn floats(st: &SafeTensors<'_>, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
    let t = st
        .tensor(name)
        .map_err(|e| LoadError(format!("tensor {name}: {e}")))?;
    if t.dtype() != safetensors::Dtype::F32 {
        return Err(LoadError(format!(
            "tensor {name}: {:?}, not F32",
            t.dtype()
        )));
    }
    if t.shape() != shape {
        return Err(LoadError(format!(
            "tensor {name}: shape {:?}, expected {shape:?}",
            t.shape()
        )));
    }
    let v: Vec<f32> = t
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if v.iter().any(|x| !x.is_finite()) {
        return Err(LoadError(format!("tensor {name}: not finite")));
    }
    Ok(v)
}

impl Mlp {
    /// Read the network named `prefix` (tensors `prefix.w1` ... `prefix.b3`) of `inputs` slots
    /// from a safetensors file's bytes, at `scale` points per unit.
    pub fn from_safetensors(
        bytes: &[u8],
        prefix: &str,
        inputs: usize,
        scale: f32,
    ) -> Result<Mlp, LoadError> {
        let st = SafeTensors::deserialize(bytes).map_err(|e| LoadError(e.to_string()))?;
        let name = |n: &str| format!("{prefix}.{n}");
        let b1 = st
            .tensor(&name("b1"))
            .map_err(|e| LoadError(format!("tensor {}: {e}", name("b1"))))?;
        let h1 = *b1.shape().first().unwrap_or(&0);
        let b2 = st
            .tensor(&name("b2"))
            .map_err(|e| LoadError(format!("tensor {}: {e}", name("b2"))))?;
        let h2 = *b2.shape().first().unwrap_or(&0);
        if h1 == 0 || h2 == 0 {
            return Err(LoadError(format!("{prefix}: empty layers")));
        }
        if h1 > MAX_HIDDEN || h2 > MAX_HIDDEN {
            return Err(LoadError(format!(
                "{prefix}: layers of {h1} and {h2} units, at most {MAX_HIDDEN} each"
            )));
        }
        let b3 = floats(&st, &name("b3"), &[1])?;
        Ok(Mlp {
            inputs,
            h1,
            h2,
            w1: floats(&st, &name("w1"), &[inputs, h1])?,
            b1: floats(&st, &name("b1"), &[h1])?,
            w2: floats(&st, &name("w2"), &[h1, h2])?,
            b2: floats(&st, &name("b2"), &[h2])?,
            w3: floats(&st, &name("w3"), &[h2, 1])?,
            b3: b3[0],
            scale,
        })
    }

    /// The first layer's sums (before the rectifier) for `x`, added onto `acc` (which starts
    /// as the biases, or as the sums of a shared part of the input).
    pub fn accumulate(&self, x: &[(u16, f32)], acc: &mut [f32]) {
        for &(i, v) in x {
            let i = i as usize;
            if i >= self.inputs {
                continue;
            }
            let row = &self.w1[i * self.h1..(i + 1) * self.h1];
            if v == 1.0 {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            } else {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += v * w;
                }
            }
        }
    }

    /// The output, in points, from the first layer's sums.
    #[must_use]
    pub fn finish(&self, acc: &[f32]) -> f32 {
        let mut h = [0.0f32; MAX_HIDDEN];
        let h2 = &mut h[..self.h2];
        h2.copy_from_slice(&self.b2);
        for (j, &a) in acc.iter().enumerate() {
            if a > 0.0 {
                let row = &self.w2[j * self.h2..(j + 1) * self.h2];
                for (o, w) in h2.iter_mut().zip(row) {
                    *o += a * w;
                }
            }
        }
        let mut out = self.b3;
        for (o, w) in h2.iter().zip(&self.w3) {
            if *o > 0.0 {
                out += o * w;
            }
        }
        out * self.scale
    }

    /// The output for a sparse input, in points.
    #[must_use]
    pub fn eval(&self, x: &Sparse) -> f32 {
        let mut sums = [0.0f32; MAX_HIDDEN];
        let acc = &mut sums[..self.h1];
        acc.copy_from_slice(&self.b1);
        self.accumulate(x, acc);
        self.finish(acc)
    }

    /// The output for a dense input (for tests against other implementations).
    #[must_use]
    pub fn eval_dense(&self, x: &[f32]) -> f32 {
        let sparse: Sparse = x
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(i, v)| (i as u16, *v))
            .collect();
        self.eval(&sparse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Mlp {
        // 3 inputs, 2 + 2 hidden units.
        Mlp {
            inputs: 3,
            h1: 2,
            h2: 2,
            w1: vec![1.0, -1.0, 0.5, 0.5, 0.0, 2.0],
            b1: vec![0.0, 0.1],
            w2: vec![1.0, 0.0, 0.0, 1.0],
            b2: vec![0.0, -0.5],
            w3: vec![2.0, 3.0],
            b3: 0.25,
            scale: 10.0,
        }
    }

    #[test]
    fn the_forward_pass_is_the_textbook_one() {
        let m = tiny();
        let x = [1.0f32, 2.0, 0.5];
        // First layer: [1*1 + 2*0.5 + 0.5*0 + 0, 1*-1 + 2*0.5 + 0.5*2 + 0.1] = [2, 1.1].
        // Second: relu([2 + 0, 1.1 - 0.5]) = [2, 0.6]; out = 0.25 + 4 + 1.8 = 6.05.
        assert!(
            (m.eval_dense(&x) - 60.5).abs() < 1e-4,
            "{}",
            m.eval_dense(&x)
        );
        // A negative unit contributes nothing.
        let y = [0.0f32, 0.0, 0.0];
        // [0, 0.1] -> [0, -0.4] -> relu [0, 0] -> 0.25.
        assert!((m.eval_dense(&y) - 2.5).abs() < 1e-5);
    }

    #[test]
    fn a_malformed_file_is_refused() {
        assert!(Mlp::from_safetensors(b"not a file", "q", 3, 1.0).is_err());
    }
}
