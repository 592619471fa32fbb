//! A realistic noisy training log of any size, for throughput measurements:
//! tqdm bars redrawn with `\r`, `[rankN]:` prefixes, timestamps, ANSI colours,
//! NCCL and Python warnings mentioning torch, and one CUDA OOM traceback at
//! the end. Deterministic (a fixed LCG), so every run measures the same text.

pub fn synthetic_log(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 4096);
    let mut seed: u64 = 42;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let mut step = 0u64;
    while out.len() < bytes {
        step += 1;
        let rank = next(16);
        match next(10) {
            0..=3 => {
                for pct in (0..100).step_by(20) {
                    out.push_str(&format!(
                        "Epoch {}: {pct:>3}%|{:<10}| {}/242 [01:{:02}<01:28,  1.50it/s, loss={}.{:04}, v_num=7]\r",
                        step / 242,
                        "█".repeat((pct / 10) as usize),
                        step % 242,
                        next(60),
                        next(9),
                        next(10_000)
                    ));
                }
                out.push('\n');
            }
            4..=6 => out.push_str(&format!(
                "2025-10-16 14:{:02}:{:02},{:03} - INFO - [rank{rank}]: step {step} loss={}.{:04} lr=1.0e-04 grad_norm=0.{:02} throughput={} samples/s\n",
                next(60), next(60), next(1000), next(9), next(10_000), next(100), 100 + next(900)
            )),
            7 => out.push_str(&format!(
                "\u{1b}[32m[rank{rank}]\u{1b}[0m \u{1b}[1mINFO\u{1b}[0m dataloader: fetched batch {step} in {} ms (num_workers=8, prefetch_factor=2)\n",
                next(500)
            )),
            8 => out.push_str(&format!(
                "[rank{rank}]:[W1016 14:34:{:02}.{:06} ProcessGroupNCCL.cpp:4115] Warning: barrier() using device under current context; specify device_ids\n",
                next(60), next(1_000_000)
            )),
            _ => out.push_str(
                "/usr/lib/python3.10/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have requires_grad=True. Gradients will be None\n",
            ),
        }
    }
    out.push_str("[rank3]: Traceback (most recent call last):\n[rank3]:   File \"train.py\", line 88, in training_step\n[rank3]:     loss.backward()\n");
    out.push_str("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 3 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Including non-PyTorch memory, this process has 74.20 GiB memory in use. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n");
    out
}
