{ a, b }@a: a
