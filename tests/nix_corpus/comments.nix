# leading comment
/* block
   comment */
{ a /* inline */, b # trailing
}:
/**/ a /***/ + /* x * y */ b # end
