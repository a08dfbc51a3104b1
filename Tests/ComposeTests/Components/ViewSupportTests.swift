import Compose
import Testing

/// `ScrollEndDetector` asks once per approach to the end, again when the content's length changes
/// while the end stays near, and ignores geometry that is not a length.
@Suite struct ScrollEndDetectorTests {
    @Test func scrollingToTheEndAsksOnceAndAgainOnlyAfterLeavingIt() {
        var detector = ScrollEndDetector(threshold: 100)
        let answers = [300, 850, 900, 1_000, 950, 500, 920].map { detector.update(contentLength: 1_000, visibleEnd: $0) }
        #expect(answers == [false, false, true, false, false, false, true])
    }

    @Test func contentThatGrowsWhileTheEndIsNearIsAskedForAgainAndTheLastPageIsNot() {
        var detector = ScrollEndDetector()
        func ask(_ length: Double, _ end: Double) -> Bool { detector.update(contentLength: length, visibleEnd: end) }
        #expect(ask(200, 600))  // short content: asks at once
        #expect(ask(400, 600))  // a page came, still short
        #expect(!ask(400, 600))  // nothing new: not again
        #expect(!ask(1_200, 600))  // fills the view now
        #expect(ask(1_200, 1_200))  // scrolled to the end
        #expect(!ask(1_200, 1_150))  // bouncing at the end
    }

    @Test func aShorterReloadWhileNearAsksAgain() {
        var detector = ScrollEndDetector(threshold: 50)
        func ask(_ length: Double, _ end: Double) -> Bool { detector.update(contentLength: length, visibleEnd: end) }
        #expect(ask(1_000, 990))
        #expect(ask(300, 990))
    }

    @Test func geometryThatIsNotALengthIsIgnored() {
        var detector = ScrollEndDetector(threshold: .nan)
        #expect(detector.threshold == 0)
        let before = detector
        for (length, end): (Double, Double) in [(.nan, 10), (10, .nan), (.infinity, 10), (10, -.infinity), (-5, 10)] {
            let answer = detector.update(contentLength: length, visibleEnd: end)
            #expect(!answer)
        }
        #expect(detector == before)
        #expect(ScrollEndDetector(threshold: -20).threshold == 0)
        let answer = detector.update(contentLength: 10, visibleEnd: 10)
        #expect(answer)
    }
}

/// `PageIndex.shown` shows an index that exists, the nearest page for one that does not, and no
/// page when there is none.
@Suite struct PageIndexTests {
    @Test func everyIndexShowsTheNearestPageThatExists() {
        #expect(PageIndex.shown(2, pageCount: 5) == 2)
        #expect(PageIndex.shown(-3, pageCount: 5) == 0)
        #expect(PageIndex.shown(5, pageCount: 5) == 4)
        #expect(PageIndex.shown(.max, pageCount: 5) == 4)
        #expect(PageIndex.shown(.min, pageCount: 1) == 0)
        #expect(PageIndex.shown(0, pageCount: 0) == nil)
        #expect(PageIndex.shown(0, pageCount: -1) == nil)
    }
}

@Suite struct ScrollEndDetectorThresholdTests {
    /// ScrollEndDetector: "A detector that answers when the end is within `threshold` points
    /// (negative: counted as 0)" and the type's doc: "A length or position that is not finite ...
    /// is ignored". `threshold` is a public `var`.
    @Test func aThresholdSetAfterInitIsCountedAsTheInitCountsIt() {
        var negative = ScrollEndDetector()
        negative.threshold = -20
        #expect(negative == ScrollEndDetector(threshold: -20))
        let answer1 = negative.update(contentLength: 100, visibleEnd: 100)
        #expect(answer1)  // at the end: near

        var notANumber = ScrollEndDetector()
        notANumber.threshold = .nan
        let answer2 = notANumber.update(contentLength: 100, visibleEnd: 100)
        #expect(answer2)  // at the end: near
    }

    /// "answers again when the content's length changes while the end is near" and "never twice
    /// for one approach to the same content": lengths that differ only in the last bit.
    @Test func nearlyEqualLengths() {
        var detector = ScrollEndDetector(threshold: 10)
        let answer3 = detector.update(contentLength: 1_000, visibleEnd: 1_000)
        #expect(answer3)
        let answer4 = detector.update(contentLength: 1_000.0000000001, visibleEnd: 1_000)
        #expect(answer4)
        let answer5 = detector.update(contentLength: 1_000.0000000001, visibleEnd: 1_000)
        #expect(!answer5)
        // Huge values stay finite.
        var huge = ScrollEndDetector(threshold: .greatestFiniteMagnitude)
        let answer6 = huge.update(contentLength: .greatestFiniteMagnitude, visibleEnd: 0)
        #expect(answer6)
        #expect(PageIndex.shown(.min, pageCount: .max) == 0)
        #expect(PageIndex.shown(.max, pageCount: .max) == .max - 1)
        #expect(PageIndex.shown(.max, pageCount: .min) == nil)
    }
}
