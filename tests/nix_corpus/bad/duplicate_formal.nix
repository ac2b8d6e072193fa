{ a, b, a }: a
