// The evaluator on small trees held in memory: expected values are worked out
// by hand from the Nix semantics (Nix manual, "Language"; builtins as Nix 2.x
// documents them).
#include "nix/eval.hpp"

#include <gtest/gtest.h>

namespace tailor::nix {
namespace {

using Files = std::map<std::string, std::string>;

struct Tree {
  Files files;
  Evaluator ev;
  explicit Tree(Files f, EvalLimits limits = {})
      : files(std::move(f)),
        ev(
            "t",
            [this](const std::string& rel) -> std::optional<std::string> {
              auto it = files.find(rel);
              if (it == files.end()) return std::nullopt;
              return it->second;
            },
            limits) {}
  ValuePtr main() { return ev.file("main.nix"); }
  ValuePtr at(ValuePtr v, std::initializer_list<std::string_view> path) {
    for (auto n : path) {
      v = ev.get(v, n);
      if (!v) return nullptr;
    }
    return v;
  }
};

std::string str(const ValuePtr& v) { return v && v->is(ValueKind::string) ? v->text : "<not a string>"; }

TEST(NixEval, LooksUpATableByADynamicNameAndRemembersWhereTheFactIsWritten) {
  Tree t(Files{{"main.nix", "let meta = import ./lib/gpu.nix; sm = \"90\"; in meta.${sm}.archName\n"},
               {"lib/gpu.nix", "{\n  \"90\" = {\n    archName = \"Hopper\";\n  };\n}\n"}});
  ValuePtr v = t.main();
  EXPECT_EQ(str(v), "Hopper");
  EXPECT_EQ(t.ev.location(v->where), "t/lib/gpu.nix:3:16");
}

TEST(NixEval, AFunctionFileCalledWithASetUsesDefaultsAndOr) {
  Tree t(Files{
      {"main.nix", "import ./mk.nix { a = \"x\"; }"},
      {"mk.nix", "{ a, b ? a + \"-b\", pkgs ? import <nixpkgs> {}, ... }: { r = b; o = { }.missing or \"dflt\"; }"}});
  ValuePtr v = t.main();
  EXPECT_EQ(str(t.at(v, {"r"})), "x-b");
  EXPECT_EQ(str(t.at(v, {"o"})), "dflt");
}

TEST(NixEval, ImpureThingsAreUnknownAndKeepTheirArguments) {
  Tree t(Files{{"main.nix",
                "let src = builtins.fetchTarball { url = \"https://example.org/${rev}.tar.gz\"; }; rev = \"abc\"; "
                "pkgs = import <nixpkgs> {}; in { s = src; p = pkgs.fetchFromGitHub { owner = \"o\"; }; "
                "d = \"${src}/x.nix\"; }"}});
  ValuePtr v = t.main();
  ValuePtr s = t.at(v, {"s"});
  ASSERT_FALSE(s->known());
  EXPECT_EQ(s->name, "builtins.fetchTarball");
  ASSERT_EQ(s->list.size(), 1u);
  EXPECT_EQ(str(t.ev.get(t.ev.force(s->list[0]), "url")), "https://example.org/abc.tar.gz");
  ValuePtr p = t.at(v, {"p"});
  ASSERT_FALSE(p->known());
  EXPECT_EQ(p->name, "import.fetchFromGitHub");  // import <nixpkgs> {}, then .fetchFromGitHub
  ASSERT_EQ(p->list.size(), 1u);
  EXPECT_EQ(str(t.ev.get(t.ev.force(p->list[0]), "owner")), "o");
  ValuePtr d = t.at(v, {"d"});
  ASSERT_FALSE(d->known());
  EXPECT_EQ(d->base, s);  // the interpolation remembers the fetch it came from
}

// `(old.x or []) ++ known`, `… + known` and `known // unknown`: unknown, made from the unknown
// side, with the known side kept as its one argument; a path's known tail is the suffix.
// And a root's unknown start with a known rest: "${root}/.flox/pkgs/${name}.nix".
TEST(NixEval, AnOperationWithOneUnknownSideKeepsTheKnownSide) {
  Tree t(Files{{"main.nix",
                "let pkgs = import <nixpkgs> {}; root = builtins.fetchTarball { url = \"u\"; }; name = \"t\"; in {\n"
                "  l = (pkgs.old or []) ++ [ \"-DX=1\" ];\n"
                "  s = pkgs.pre + \"export V=1\";\n"
                "  u = { pname = \"p\"; } // pkgs.extra;\n"
                "  f = root + \"/recipes/torch.nix\";\n"
                "  i = \"${toString root}/.flox/pkgs/${name}.nix\";\n}\n"}});
  ValuePtr v = t.main();
  ValuePtr l = t.at(v, {"l"});
  ASSERT_FALSE(l->known());
  EXPECT_EQ(l->name, "++");
  EXPECT_EQ(l->base->name, "import.old");
  ASSERT_EQ(l->list.size(), 1u);
  ValuePtr kept = t.ev.force(l->list[0]);
  ASSERT_TRUE(kept->is(ValueKind::list));
  ASSERT_EQ(kept->list.size(), 1u);
  EXPECT_EQ(str(t.ev.force(kept->list[0])), "-DX=1");
  ValuePtr s = t.at(v, {"s"});
  ASSERT_FALSE(s->known());
  EXPECT_EQ(s->name, "+");
  ASSERT_EQ(s->list.size(), 1u);
  EXPECT_EQ(str(t.ev.force(s->list[0])), "export V=1");
  ValuePtr u = t.at(v, {"u"});
  ASSERT_FALSE(u->known());
  EXPECT_EQ(u->name, "//");
  ASSERT_EQ(u->list.size(), 1u);
  EXPECT_EQ(str(t.ev.get(t.ev.force(u->list[0]), "pname")), "p");
  ValuePtr f = t.at(v, {"f"});
  ASSERT_FALSE(f->known());
  EXPECT_EQ(f->base->name, "builtins.fetchTarball");
  EXPECT_EQ(f->suffix, "/recipes/torch.nix");
  ValuePtr i = t.at(v, {"i"});
  ASSERT_FALSE(i->known());
  EXPECT_EQ(i->suffix, "/.flox/pkgs/t.nix");
}

TEST(NixEval, LazyAnUnusedBranchOrAttributeCostsNothing) {
  Tree t(Files{{"main.nix", "let x = throw \"no\"; in { a = if true then 1 else x; b = x; c = [ x 2 ]; }"}});
  ValuePtr v = t.main();
  EXPECT_EQ(t.at(v, {"a"})->integer, 1);
  ValuePtr b = t.at(v, {"b"});
  EXPECT_FALSE(b->known());
  EXPECT_EQ(b->text, "t/main.nix:1:9: throw: no");
  EXPECT_EQ(t.ev.force(t.at(v, {"c"})->list[1])->integer, 2);
}

TEST(NixEval, RecInheritWithAndUpdate) {
  Tree t(Files{{"main.nix",
                "let base = rec { a = 1; b = a + 1; }; in with base; "
                "{ inherit a; inherit (base) b; u = ({ x = 1; y = 2; } // { y = 3; }).y; n = a.b or 7; "
                "nested.p.q = 4; nested.p.r = 5; }"}});
  ValuePtr v = t.main();
  EXPECT_EQ(t.at(v, {"a"})->integer, 1);
  EXPECT_EQ(t.at(v, {"b"})->integer, 2);
  EXPECT_EQ(t.at(v, {"u"})->integer, 3);
  EXPECT_EQ(t.at(v, {"n"})->integer, 7);
  EXPECT_EQ(t.at(v, {"nested", "p", "q"})->integer, 4);
  EXPECT_EQ(t.at(v, {"nested", "p", "r"})->integer, 5);
}

TEST(NixEval, BuiltinsTablesUse) {
  Tree t(Files{{"main.nix",
                "let m = { \"12_9\" = 1; \"13_0\" = 2; }; in {\n"
                "  names = builtins.attrNames m;\n"
                "  dotted = builtins.replaceStrings [ \"_\" ] [ \".\" ] \"12_9\";\n"
                "  major = builtins.head (builtins.match \"([0-9]+)_([0-9]+)\" \"13_0\");\n"
                "  has = builtins.hasAttr \"13_0\" m;\n"
                "  inList = builtins.elem \"avx2\" [ \"avx\" \"avx2\" ];\n"
                "  joined = builtins.concatStringsSep \", \" (map (x: \"sm\" + x) [ \"90\" \"100\" ]);\n"
                "  n = builtins.length [ 1 2 3 ];\n"
                "  second = builtins.elemAt [ \"a\" \"b\" ] 1;\n"
                "  s = toString 575;\n"
                "  nomatch = builtins.match \"a\" \"b\";\n"
                "}\n"}});
  ValuePtr v = t.main();
  ValuePtr names = t.at(v, {"names"});
  ASSERT_EQ(names->list.size(), 2u);
  EXPECT_EQ(str(t.ev.force(names->list[0])), "12_9");
  EXPECT_EQ(str(t.at(v, {"dotted"})), "12.9");
  EXPECT_EQ(str(t.at(v, {"major"})), "13");
  EXPECT_TRUE(t.at(v, {"has"})->boolean);
  EXPECT_TRUE(t.at(v, {"inList"})->boolean);
  EXPECT_EQ(str(t.at(v, {"joined"})), "sm90, sm100");
  EXPECT_EQ(t.at(v, {"n"})->integer, 3);
  EXPECT_EQ(str(t.at(v, {"second"})), "b");
  EXPECT_EQ(str(t.at(v, {"s"})), "575");
  EXPECT_TRUE(t.at(v, {"nomatch"})->is(ValueKind::null));
}

TEST(NixEval, ReplaceStringsFollowsNixOnEmptyPatterns) {
  // builtins.replaceStrings [ "" ] [ "-" ] "ab" is "-a-b-" in Nix.
  Tree t(Files{{"main.nix", "builtins.replaceStrings [ \"\" ] [ \"-\" ] \"ab\""}});
  EXPECT_EQ(str(t.main()), "-a-b-");
}

TEST(NixEval, ErrorsAreUnknownWithTheirPlace) {
  Tree t(Files{{"main.nix", "{ a = { }.x; b = 1 + \"s\"; c = undefinedName; d = import ./nope.nix; }"}});
  ValuePtr v = t.main();
  EXPECT_EQ(t.at(v, {"a"})->text, "t/main.nix:1:11: attribute 'x' missing");
  EXPECT_EQ(t.at(v, {"b"})->text, "t/main.nix:1:18: '+' of an integer and a string");
  EXPECT_EQ(t.at(v, {"c"})->text, "t/main.nix:1:31: undefined variable 'undefinedName'");
  EXPECT_EQ(t.at(v, {"d"})->text, "t/main.nix:1:50: import of nope.nix, which the tree does not have");
}

TEST(NixEval, ASyntaxErrorIsUnknownAndReported) {
  Tree t(Files{{"main.nix", "{ a = ; }"}});
  ValuePtr v = t.main();
  EXPECT_FALSE(v->known());
  ASSERT_NE(t.ev.syntax_error("main.nix"), nullptr);
}

TEST(NixEval, ImportsOutsideTheTreeAreUnknown) {
  Tree t(Files{{"main.nix", "import ../../etc/passwd.nix"}});
  ValuePtr v = t.main();
  EXPECT_FALSE(v->known());
  EXPECT_EQ(v->text, "an import of ../../etc/passwd.nix, outside the tree");
}

TEST(NixEval, BoundedInStepsAndDepth) {
  // An infinite recursion through a function, and one through a value.
  Tree t(Files{{"main.nix", "let f = x: f (x + 1); in { a = f 0; b = let y = y + 1; in y; }"}}, EvalLimits{100000, 50});
  ValuePtr v = t.main();
  EXPECT_EQ(t.at(v, {"a"})->text, "evaluation nested too deeply");
  EXPECT_EQ(t.at(v, {"b"})->text, "t/main.nix:1:49: infinite recursion");
  Tree wide(Files{{"main.nix",
                   "builtins.length (builtins.concatLists (builtins.genList (i: builtins.genList (j: j) 1000) 1000))"}},
            EvalLimits{100000, 200, 1u << 20, 16, 1u << 20, 1u << 16});
  EXPECT_FALSE(wide.main()->known());
}

TEST(NixEval, AnImportedFileIsEvaluatedOnce) {
  Tree t(Files{{"main.nix", "[ (import ./t.nix) (import ./t.nix) ]"}, {"t.nix", "{ x = 1; }"}});
  ValuePtr v = t.main();
  EXPECT_EQ(t.ev.force(v->list[0]), t.ev.force(v->list[1]));
}

}  // namespace
}  // namespace tailor::nix

namespace tailor::nix {
namespace {

TEST(NixEval, MatchTakesPolynomialTimeOnAPatternThatBacktracks) {
  // "(a+)+b" on forty a's and a c: 2^40 paths for a backtracking matcher.
  Tree t(Files{{"main.nix", "builtins.match \"(a+)+b\" \"" + std::string(40, 'a') + "c\""}});
  EXPECT_TRUE(t.main()->is(ValueKind::null));
}

TEST(NixEval, ValuesBeyondTheMemoryBudgetAreUnknownAndSayWhy) {
  // s is 1 MiB (16 bytes x 65,536); each element of the list makes a new 1 MiB string: 64 MiB in
  // all, where the budget is 8 MiB. Before the budget the whole list was built.
  EvalLimits limits;
  limits.max_bytes = 8u << 20;
  Tree t(Files{{"main.nix",
                "let s = builtins.concatStringsSep \"\" (builtins.genList (i: \"0123456789abcdef\") 65536);\n"
                "in builtins.genList (i: s + \"x\") 64\n"}},
         limits);
  ValuePtr l = t.main();
  ASSERT_TRUE(l->is(ValueKind::list));
  ASSERT_EQ(l->list.size(), 64u);
  size_t known = 0;
  ValuePtr last;
  for (const auto& x : l->list) {
    last = t.ev.force(x);
    if (last->is(ValueKind::string)) ++known;
  }
  EXPECT_LT(known, 8u);  // 8 MiB of 1 MiB strings, less what s and its list took
  EXPECT_FALSE(last->known());
  EXPECT_EQ(last->text, "evaluation memory limit reached (8 MiB of values)");
  EXPECT_TRUE(t.ev.out_of_memory());
}

TEST(NixEval, ASharedStringCostsItsLengthOnceAndACellPerElement) {
  // genList (i: s) shares s: 4,096 elements of one 1 MiB string stay well under 8 MiB.
  EvalLimits limits;
  limits.max_bytes = 8u << 20;
  // s: 1,024 copies of a 1 KiB literal (a list of 65,536 short strings would itself cost
  // more than the budget in cells before s exists).
  Tree t(Files{{"main.nix", "let s = builtins.concatStringsSep \"\" (builtins.genList (i: \"" + std::string(1024, 'x') +
                                "\") 1024);\nin builtins.genList (i: s) 4096\n"}},
         limits);
  ValuePtr l = t.main();
  ASSERT_TRUE(l->is(ValueKind::list));
  for (const auto& x : l->list) ASSERT_EQ(t.ev.force(x)->text.size(), 1u << 20);
  EXPECT_FALSE(t.ev.out_of_memory());
  // A reader that expands each element to its text is charged for it: 4 GiB does not fit.
  EXPECT_FALSE(t.ev.charge(size_t{4096} << 20));
}

}  // namespace
}  // namespace tailor::nix
