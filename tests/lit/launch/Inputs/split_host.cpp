// The host half of split_host_kernel.cu: it chooses the block size from the
// command line and calls the launcher defined in the other file.
#include <cstdlib>

void launch_scale(float *d, int n, int threads);

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 128;
  float *d = nullptr;
  launch_scale(d, 1 << 20, threads);
  return 0;
}
