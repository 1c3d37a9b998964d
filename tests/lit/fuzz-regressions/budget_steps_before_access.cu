// Found with the pathological seeds written for the whole-file fuzzer
// (docs/fuzzing.md): three nested loops of known trip count run concretely
// and exhaust the step budget (20,000,000) before the innermost access is
// ever recorded; the access vanished ("0 accesses in 1 kernel", no remark)
// after about 3 s. The salvage walk runs no loop concretely. The reason
// names the loop the steps were spent in, outermost and innermost.
// RUN: %lint %s | FileCheck %s
// CHECK: :15:9: remark: global load and store of 'p' cannot be predicted: analysis budget exceeded (more than 20000000 interpretation steps, spent in the loop at budget_steps_before_access.cu:12 (innermost: the loop at budget_steps_before_access.cu:14))
// CHECK-NOT: :15:9: remark: global store to 'p' cannot be predicted: analysis budget exceeded (more than 20000000 interpretation steps, spent in the loop at budget_steps_before_access.cu:12 (innermost: the loop at budget_steps_before_access.cu:14))

__global__ void nested(float *p) {
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 1000; ++j)
      for (int k = 0; k < 1000; ++k)
        p[i + j + k + threadIdx.x] += 1;
}

void launch(float *p) { nested<<<1, 1024>>>(p); }
