// Plain C++ without any CUDA: host classes, templates and the standard
// library. coalesce-lint parses every input as CUDA (device side), finds no
// kernel and reports nothing.
#include <cstdio>
#include <vector>

template <typename T> struct Matrix {
  std::vector<T> Data;
  int Rows = 0, Cols = 0;
  T &at(int R, int C) { return Data[R * Cols + C]; }
};

int main() {
  Matrix<float> M{std::vector<float>(16), 4, 4};
  for (int C = 0; C < 4; ++C)
    for (int R = 0; R < 4; ++R)
      M.at(R, C) = float(R + C);
  std::printf("%f\n", M.at(3, 3));
}
