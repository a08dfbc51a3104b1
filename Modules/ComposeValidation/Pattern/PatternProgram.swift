/// A compiled pattern: a Thompson NFA as a list of instructions, run by a Pike VM.
///
/// Matching advances every live thread one character at a time, with no backtracking: each
/// character costs at most one visit per instruction, so a match costs O(*n* × *m*) for an input
/// of *n* characters and a program of *m* instructions. No input can make it slower.
struct PatternProgram: Sendable {
    enum Instruction: Sendable {
        /// An ASCII character (one scalar, not `\r\n`), compared as a byte on ASCII input. Like
        /// Regex, it matches that scalar alone: `K` does not match the Kelvin sign.
        case ascii(UInt8)
        /// Any other character, compared canonically, as Regex compares it: `é` matches "e"
        /// followed by a combining acute. Never an ASCII character on the byte path: a character
        /// equivalent to one (the Kelvin sign is "K") is compiled to a class instead.
        case character(Character)
        case anyCharacter
        /// A character in `characterClasses[index]`.
        case characterClass(Int)
        /// Continue at both targets (the first is preferred, which does not matter here).
        case split(Int, Int)
        case jump(Int)
        case assertStart
        case assertEnd
        case match
    }

    /// Programs larger than this are refused: bounded repetitions of large groups multiply.
    static let maximumSize = 10_000

    private(set) var instructions: [Instruction] = []
    /// The classes `characterClass` instructions refer to: kept aside so an instruction is a
    /// few bytes that matching reads without copying a class's member list.
    private(set) var characterClasses: [CharacterClass] = []
    /// `characterClasses` as parsed: a class repeated by a quantifier is compiled once.
    private var parsedClasses: [CharacterClass] = []

    /// Compiles `node`.
    ///
    /// - Throws: ``PatternError`` if the program would have more than ``maximumSize``
    ///   instructions. The size is computed from the tree first, so a pattern such as
    ///   `(?:\d{300}){1000}` is refused at once instead of after emitting 300,000 instructions.
    /// - Complexity: O(*m*) for a program of *m* instructions, plus O(*c*) per character class
    ///   instruction for *c* distinct classes.
    init(_ node: PatternNode) throws(PatternError) {
        guard Self.size(of: node) < Self.maximumSize else { throw Self.tooLarge }
        try emit(node)
        instructions.append(.match)
    }

    static var tooLarge: PatternError {
        PatternError(reason: "the pattern compiles to more than \(maximumSize) steps", offset: 0)
    }

    /// The number of instructions `emit(node)` appends, saturating just above ``maximumSize``.
    static func size(of node: PatternNode) -> Int {
        let cap = maximumSize + 1
        func capped(_ value: Int) -> Int { min(value, cap) }
        func times(_ count: Int, _ size: Int) -> Int {
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            return overflow ? cap : capped(product)
        }
        switch node {
        case .literal, .anyCharacter, .characterClass, .startOfInput, .endOfInput:
            return 1
        case .sequence(let items):
            return items.reduce(0) { capped($0 + size(of: $1)) }
        case .alternation(let branches):
            // A split and a jump around every branch but the last.
            return branches.reduce(2 * max(branches.count - 1, 0)) { capped($0 + size(of: $1)) }
        case .repetition(let item, let minimum, let maximum):
            let item = size(of: item)
            guard item > 0 else { return 0 }  // emitted as nothing; see `emit`
            let required = times(minimum, item)
            guard let maximum else { return capped(required + item + 2) }  // split, body, jump
            return capped(required + times(maximum - minimum, item + 1))  // split and body per optional copy
        }
    }

    private mutating func append(_ instruction: Instruction) throws(PatternError) -> Int {
        guard instructions.count < Self.maximumSize else { throw Self.tooLarge }
        instructions.append(instruction)
        return instructions.count - 1
    }

    private mutating func emit(_ node: PatternNode) throws(PatternError) {
        switch node {
        case .literal(let character):
            let scalars = character.unicodeScalars
            if scalars.count == 1, let scalar = scalars.first, scalar.isASCII {
                _ = try append(.ascii(UInt8(scalar.value)))
            } else if let equivalent = character.singleNFCScalar, equivalent.isASCII {
                // The Kelvin sign matches "K" too: a class of that one member matches what the
                // character does, by its bitmap on the byte path.
                try emit(.characterClass(CharacterClass(members: [.character(character)])))
            } else {
                _ = try append(.character(character))
            }
        case .anyCharacter: _ = try append(.anyCharacter)
        case .characterClass(let set):
            if let index = parsedClasses.firstIndex(of: set) {
                _ = try append(.characterClass(index))
            } else {
                parsedClasses.append(set)
                characterClasses.append(set.compiled())
                _ = try append(.characterClass(characterClasses.count - 1))
            }
        case .startOfInput: _ = try append(.assertStart)
        case .endOfInput: _ = try append(.assertEnd)
        case .sequence(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split ...; last branch; end:
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = try append(.split(0, 0))
                    try emit(branch)
                    jumps.append(try append(.jump(0)))
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let item, let minimum, let maximum):
            // An item that compiles to nothing (such as `x{0}`) matches only the empty string, and
            // so does any repetition of it: emit nothing. Repeating it anyway would cost time
            // without instructions to show for it (`(x{0}){1000}{1000}` is a million calls),
            // which the size check cannot see. Every other copy emits at least one instruction,
            // so the work is bounded by the program size.
            guard Self.size(of: item) > 0 else { return }
            for _ in 0..<minimum { try emit(item) }
            if let maximum {
                // Each optional copy: split into, or past, the copy.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(try append(.split(0, 0)))
                    try emit(item)
                }
                for split in splits { instructions[split] = .split(split + 1, instructions.count) }
            } else {
                // loop: split body, exit; body; jump loop; exit:
                let loop = try append(.split(0, 0))
                try emit(item)
                _ = try append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
    }

    /// Whether the whole of `input` matches.
    ///
    /// - Parameter steps: Counts instruction visits, for tests of the complexity bound.
    /// - Complexity: O(*n* × *m*). The thread sets live on the stack: matching allocates nothing.
    @_specialize(where Input == String)
    @_specialize(where Input == Substring)
    func wholeMatch<Input: StringProtocol>(_ input: Input, steps: inout Int) -> Bool {
        let capacity = instructions.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * capacity) { buffer in
            // O(m), so nothing is ever read uninitialized.
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            var current = ThreadSet(dense: base, sparse: base + capacity)
            var next = ThreadSet(dense: base + 2 * capacity, sparse: base + 3 * capacity)
            // Most form input is ASCII without CR LF: then every byte is exactly one Character,
            // and matching can read bytes. (CR LF is one Character, hence the exclusion.)
            let ascii = input.utf8.withContiguousStorageIfAvailable { bytes in
                Self.isOneCharacterPerByte(bytes) ? runASCII(bytes, current: &current, next: &next, steps: &steps) : nil
            }
            if let matched = ascii ?? nil { return matched }
            return run(input, current: &current, next: &next, steps: &steps)
        }
    }

    /// Whether `bytes` are ASCII without CR LF: one byte per character.
    private static func isOneCharacterPerByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte >= 0x80 || (byte == 0x0A && previous == 0x0D) { return false }
            previous = byte
        }
        return true
    }

    /// ``run(_:current:next:steps:)`` over ASCII bytes without CR LF, one byte per character.
    private func runASCII(
        _ bytes: UnsafeBufferPointer<UInt8>,
        current: inout ThreadSet,
        next: inout ThreadSet,
        steps: inout Int
    ) -> Bool {
        addThread(0, to: &current, atStart: true, atEnd: bytes.isEmpty, steps: &steps)
        for (offset, byte) in bytes.enumerated() {
            let atEnd = offset == bytes.count - 1
            next.removeAll()
            for position in 0..<current.count {
                let pc = current[position]
                steps += 1
                let advances: Bool
                switch instructions[pc] {
                case .ascii(let expected): advances = byte == expected
                case .character: advances = false  // not ASCII, nor equivalent to ASCII
                // LF, VT, FF and CR are newlines, which `.` is not (as in Regex).
                case .anyCharacter: advances = !(0x0A...0x0D).contains(byte)
                case .characterClass(let index): advances = characterClasses[index].containsASCII(byte)
                default: advances = false
                }
                if advances { addThread(pc + 1, to: &next, atStart: false, atEnd: atEnd, steps: &steps) }
            }
            swap(&current, &next)
            if current.count == 0 { return false }
        }
        return isMatch(current)
    }

    private func isMatch(_ threads: ThreadSet) -> Bool {
        for position in 0..<threads.count {
            if case .match = instructions[threads[position]] { return true }
        }
        return false
    }

    /// Matches by `Character` even when the byte path could be used: for tests that check the
    /// two paths agree.
    func wholeMatchByCharacter(_ input: String) -> Bool {
        let capacity = instructions.count
        var steps = 0
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * capacity) { buffer in
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            var current = ThreadSet(dense: base, sparse: base + capacity)
            var next = ThreadSet(dense: base + 2 * capacity, sparse: base + 3 * capacity)
            return run(input, current: &current, next: &next, steps: &steps)
        }
    }

    private func run<Input: StringProtocol>(
        _ input: Input,
        current: inout ThreadSet,
        next: inout ThreadSet,
        steps: inout Int
    ) -> Bool {
        var index = input.startIndex
        addThread(0, to: &current, atStart: true, atEnd: index == input.endIndex, steps: &steps)
        while index < input.endIndex {
            let character = input[index]
            input.formIndex(after: &index)
            let atEnd = index == input.endIndex
            next.removeAll()
            for position in 0..<current.count {
                let pc = current[position]
                steps += 1
                let advances: Bool
                switch instructions[pc] {
                case .ascii(let expected):
                    advances = character.asciiScalar == expected
                case .character(let expected): advances = character.mayBeEquivalent(to: expected) && character == expected
                case .anyCharacter: advances = !character.isNewline
                case .characterClass(let index): advances = characterClasses[index].contains(character)
                default: advances = false
                }
                if advances { addThread(pc + 1, to: &next, atStart: false, atEnd: atEnd, steps: &steps) }
            }
            swap(&current, &next)
            if current.count == 0 { return false }
        }
        return isMatch(current)
    }

    /// Follows the instructions that consume nothing from `pc`, adding every reachable
    /// consuming (or matching) instruction once.
    private func addThread(_ pc: Int, to set: inout ThreadSet, atStart: Bool, atEnd: Bool, steps: inout Int) {
        var stack = [pc]
        while let pc = stack.popLast() {
            guard set.insert(pc) else { continue }
            steps += 1
            switch instructions[pc] {
            case .jump(let target):
                stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertStart:
                if atStart { stack.append(pc + 1) }
            case .assertEnd:
                if atEnd { stack.append(pc + 1) }
            case .ascii, .character, .anyCharacter, .characterClass, .match:
                break
            }
        }
    }
}
