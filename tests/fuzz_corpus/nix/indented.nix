{ x, y }:
{
  basic = ''
    line one
      indented
    line three
  '';
  first = ''  same line
    next'';
  blank = ''

    after blank

  '';
  tabs = ''
	tab line
    space line
  '';
  escapes = ''
    dollar ''$ quote ''' backslash ''\n ''\t ''\\ ''\x
    interp ${x} not ''${x}
    dollars $$ $${y} $x ' 'a
  '';
  interpOnly = ''${x}'';
  interpStart = ''
    ${x} starts
      ${y}
  '';
  lastLine = ''
    a
    b'';
  trailing = ''
    a
      '';
  empty = '''';
  spaces = ''   '';
  nested = ''
    ${ ''
      inner ${x}
    '' }
  '';
  escapeIndent = ''
  ''\ x
    y
  '';
}
