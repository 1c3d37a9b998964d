#define BLOCK 256
