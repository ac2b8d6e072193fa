/absolute/../norm//x
