let a = 1; in a + b
