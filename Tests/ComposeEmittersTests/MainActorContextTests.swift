import ComposeMachinery
import Foundation
import Testing

/// `MainActorContext.isCurrent` decides, on every delivery to a main-actor handler, whether the
/// handler may be called at once. It keeps each thread's "is this the main thread" answer (two
/// system calls on Linux) the first time the thread asks: the answer must stay right on every
/// later ask, on the main actor and off it.
@Suite struct MainActorContextTests {
    @Test func theMainActorIsRecognisedEveryTimeItAsks() async {
        let answers = await MainActor.run { (0..<3).map { _ in MainActorContext.isCurrent } }
        #expect(answers == [true, true, true])
    }

    @Test func anotherThreadIsNeverTakenForTheMainActor() async {
        let answers = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: (0..<3).map { _ in MainActorContext.isCurrent }) }
            thread.start()
        }
        #expect(answers == [false, false, false])
    }

    @Test func manyThreadsAskingAtOnceEachGetTheirOwnAnswer() async {
        let answers = await withTaskGroup(of: [Bool].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread { continuation.resume(returning: (0..<100).map { _ in MainActorContext.isCurrent }) }.start()
                    }
                }
            }
            group.addTask { await MainActor.run { (0..<100).map { _ in MainActorContext.isCurrent } } }
            return await group.reduce(into: [Bool]()) { $0 += $1 }
        }
        #expect(answers.filter { $0 }.count == 100)  // the main actor's hundred asks, and no other
    }
}
