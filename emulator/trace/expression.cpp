#include "emulator/trace/expression.h"

#include <cctype>

namespace netburst::emu::trace {

bool Bindings::lookup(const std::string& name, std::int64_t* value) const {
    for (auto it = vars.rbegin(); it != vars.rend(); ++it)
        if (it->first == name) {
            *value = it->second;
            return true;
        }
    return false;
}

std::uint64_t trace_hash(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

namespace {

class Number final : public Expression {
public:
    explicit Number(std::int64_t v) : v_(v) {}
    bool eval(const Bindings&, std::int64_t* out, std::string*) const override { *out = v_; return true; }
    bool constant() const override { return true; }
private:
    std::int64_t v_;
};

class Variable final : public Expression {
public:
    explicit Variable(std::string name) : name_(std::move(name)) {}
    bool eval(const Bindings& b, std::int64_t* out, std::string* error) const override {
        if (b.lookup(name_, out)) return true;
        *error = "unknown variable '" + name_ + "' (loop variables are named by 'repeat N as NAME', default i)";
        return false;
    }
    bool constant() const override { return false; }
private:
    std::string name_;
};

class Rand final : public Expression {
public:
    explicit Rand(std::unique_ptr<Expression> arg) : arg_(std::move(arg)) {}
    bool eval(const Bindings& b, std::int64_t* out, std::string* error) const override {
        std::int64_t x;
        if (!arg_->eval(b, &x, error)) return false;
        *out = static_cast<std::int64_t>(trace_hash(static_cast<std::uint64_t>(x)) >> 1);
        return true;
    }
    bool constant() const override { return arg_->constant(); }
private:
    std::unique_ptr<Expression> arg_;
};

class Binary final : public Expression {
public:
    Binary(std::string op, std::unique_ptr<Expression> l, std::unique_ptr<Expression> r)
        : op_(std::move(op)), l_(std::move(l)), r_(std::move(r)) {}
    bool eval(const Bindings& b, std::int64_t* out, std::string* error) const override {
        std::int64_t x, y;
        if (!l_->eval(b, &x, error) || !r_->eval(b, &y, error)) return false;
        const std::uint64_t ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
        if ((op_ == "/" || op_ == "%") && y == 0) {
            *error = "division by zero";
            return false;
        }
        if (op_ == "+") *out = static_cast<std::int64_t>(ux + uy);
        else if (op_ == "-") *out = static_cast<std::int64_t>(ux - uy);
        else if (op_ == "*") *out = static_cast<std::int64_t>(ux * uy);
        else if (op_ == "/") *out = x / y;
        else if (op_ == "%") *out = x % y;
        else if (op_ == "<<") *out = static_cast<std::int64_t>(y >= 64 ? 0 : ux << y);
        else if (op_ == ">>") *out = static_cast<std::int64_t>(y >= 64 ? 0 : ux >> y);
        else if (op_ == "&") *out = x & y;
        else if (op_ == "|") *out = x | y;
        else if (op_ == "^") *out = x ^ y;
        else if (op_ == "==") *out = x == y;
        else if (op_ == "!=") *out = x != y;
        else if (op_ == "<") *out = x < y;
        else if (op_ == "<=") *out = x <= y;
        else if (op_ == ">") *out = x > y;
        else *out = x >= y;  // ">="
        return true;
    }
    bool constant() const override { return l_->constant() && r_->constant(); }
private:
    std::string op_;
    std::unique_ptr<Expression> l_, r_;
};

// Precedence climbing over a string without spaces inside tokens.
class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}

    std::unique_ptr<Expression> run(std::string* error) {
        auto e = parse_binary(0, error);
        skip();
        if (e && pos_ != s_.size()) {
            *error = "unexpected '" + s_.substr(pos_) + "' in expression '" + s_ + "'";
            return nullptr;
        }
        return e;
    }

private:
    void skip() { while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_; }

    static int precedence(const std::string& op) {
        if (op == "|") return 1;
        if (op == "^") return 2;
        if (op == "&") return 3;
        if (op == "==" || op == "!=") return 4;
        if (op == "<" || op == "<=" || op == ">" || op == ">=") return 5;
        if (op == "<<" || op == ">>") return 6;
        if (op == "+" || op == "-") return 7;
        if (op == "*" || op == "/" || op == "%") return 8;
        return -1;
    }

    std::string peek_op() {
        skip();
        for (const char* op : {"<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">"}) {
            const std::string o(op);
            if (s_.compare(pos_, o.size(), o) == 0) return o;
        }
        return "";
    }

    std::unique_ptr<Expression> parse_binary(int min_prec, std::string* error) {
        auto left = parse_unary(error);
        if (!left) return nullptr;
        for (;;) {
            const std::string op = peek_op();
            const int prec = op.empty() ? -1 : precedence(op);
            if (prec < 0 || prec < min_prec) return left;
            pos_ += op.size();
            auto right = parse_binary(prec + 1, error);
            if (!right) return nullptr;
            left = std::make_unique<Binary>(op, std::move(left), std::move(right));
        }
    }

    // After an opening '(': the expression up to the matching ')', which is consumed; `missing` opens the error
    // when there is none.
    std::unique_ptr<Expression> parse_closed(const char* missing, std::string* error) {
        auto inner = parse_binary(0, error);
        skip();
        if (!inner) return nullptr;
        if (pos_ >= s_.size() || s_[pos_] != ')') {
            *error = missing + s_ + "'";
            return nullptr;
        }
        ++pos_;
        return inner;
    }

    std::unique_ptr<Expression> parse_unary(std::string* error) {
        skip();
        if (pos_ >= s_.size()) {
            *error = "expression '" + s_ + "' ends too early";
            return nullptr;
        }
        if (s_[pos_] == '-') {
            ++pos_;
            auto inner = parse_unary(error);
            if (!inner) return nullptr;
            return std::make_unique<Binary>("-", std::make_unique<Number>(0), std::move(inner));
        }
        if (s_[pos_] == '(') {
            ++pos_;
            return parse_closed("missing ')' in expression '", error);
        }
        if (std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
            std::size_t used = 0;
            unsigned long long v = 0;
            try {
                v = std::stoull(s_.substr(pos_), &used, 0);
            } catch (...) {
                *error = "number out of range in expression '" + s_ + "'";
                return nullptr;
            }
            pos_ += used;
            return std::make_unique<Number>(static_cast<std::int64_t>(v));
        }
        if (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_') {
            std::size_t start = pos_;
            while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
            const std::string name = s_.substr(start, pos_ - start);
            skip();
            if (name == "rand" && pos_ < s_.size() && s_[pos_] == '(') {
                ++pos_;
                auto arg = parse_closed("missing ')' after rand( in '", error);
                if (!arg) return nullptr;
                return std::make_unique<Rand>(std::move(arg));
            }
            return std::make_unique<Variable>(name);
        }
        *error = "unexpected '" + std::string(1, s_[pos_]) + "' in expression '" + s_ + "'";
        return nullptr;
    }

    const std::string& s_;
    std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<Expression> Expression::parse(const std::string& text, std::string* error) {
    return Parser(text).run(error);
}

}  // namespace netburst::emu::trace
